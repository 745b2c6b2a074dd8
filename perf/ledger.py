#!/usr/bin/env python3
"""The match ledger (perf/ledger.jsonl): every match the project reports, one JSON record a line,
oldest first, and the tables the docs show, rendered from it.

  render NAME              print one table (peers, peers-today)
  check DOC...             exit 1 when a table between `<!-- ledger:NAME -->` and
                           `<!-- /ledger:NAME -->` in a doc differs from its rendering
  write DOC...             rewrite those tables from the ledger
  add --output FILE ...    append a record from a match runner's output (perf/match.sh does it)
  sum --engine E --opponent O [--conditions TEXT]
                           the records of one pairing (conditions containing TEXT) summed: their
                           pentanomial counts added, the Elo, its 95% interval and the LOS of the
                           whole, as the runner computes them

A record has a kind: "peer" (VBlitz against another engine), "network" (a network against the one
it was meant to replace), "search" (a build with a search change against the one before) or
"uci_elo" (a UCI_Elo level against Stockfish's). Every record has recorded (the date) and
recorded_in (the commit that first reported it), conditions (clock or nodes), games, and either
the figures (wins, losses, draws, score in percent, elo and elo_error at 95%, optional ptnml:
pentanomial counts, optional failures and time_losses: the games lost by an engine's failure and
on time, [this side's, the opponent's], from vblitz-match's summary) or a result_note that states
them in words (a row that sums several runs, as the records moved from the docs' prose do; elo and
elo_error then hold the figure the decision rested on, when one did). A peer record also has
engine (the network's name), opponent, openings and score, and a uci_elo record engine, opponent
(Stockfish at the level, or the network before it at its budget when a budget is carried over)
and openings; each optionally engine_note, signature (bench), srand and openings_note; a uci_elo
record has uci_elo (the level) and may have node_budget and root_noise. A network record has
engine, opponent (the network it played), openings, data (what it learned from), shape and
decision, optionally opponent_note and peers_note (its matches against peers, which have records
of their own). A search record has change (what the build
changed) and decision. Records of a kind are in the order they were played.

usage: python3 perf/ledger.py [--ledger perf/ledger.jsonl] COMMAND ...
"""
import argparse
import datetime
import json
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Kinds: a peer (another engine), a network against the one before, a search change (a build
# against the one before), a UCI_Elo level against Stockfish's.
REQUIRED = {"peer": ["engine", "opponent", "openings", "score"],
            "uci_elo": ["engine", "opponent", "openings", "uci_elo"],
            "network": ["engine", "opponent", "openings", "data", "shape", "decision"],
            "search": ["change", "decision"]}
for fields in REQUIRED.values():
    fields[:0] = ["kind", "recorded", "recorded_in", "conditions", "games"]
KNOWN = {"kind", "recorded", "recorded_in", "engine", "engine_note", "signature", "opponent", "opponent_note",
         "conditions", "openings", "srand", "openings_note", "ptnml", "games", "wins", "losses", "draws",
         "result_note", "score", "elo", "elo_error", "decision", "uci_elo", "node_budget", "root_noise", "data",
         "shape", "peers_note", "change", "failures", "time_losses"}


def pentanomial_elo(ptnml):
    """Elo, the half-width of its 95% interval, LOS (%) and score (%) of pentanomial counts, as
    fastchess and vblitz-match compute them: the mean and variance of the pairs' scores."""
    pairs = sum(ptnml)
    mean = sum(c * x / 4 for x, c in enumerate(ptnml)) / pairs
    variance = sum(c * (x / 4 - mean) ** 2 for x, c in enumerate(ptnml)) / pairs
    error = math.sqrt(variance / pairs)
    if not 0 < mean < 1 or error == 0:
        return None
    to_elo = lambda m: -400 * math.log10(1 / m - 1) if 0 < m < 1 else math.copysign(math.inf, m - 0.5)
    low, high = to_elo(mean - 1.959964 * error), to_elo(mean + 1.959964 * error)
    los = 50 * (1 + math.erf((mean - 0.5) / error / math.sqrt(2)))
    return to_elo(mean), (high - low) / 2, los, 100 * mean


def validate(r, where):
    """Exits with a message when a record breaks the ledger's rules."""
    if r.get("kind") not in REQUIRED:
        sys.exit(f"ledger.py: {where}: unknown kind {r.get('kind')!r}")
    missing = [k for k in REQUIRED[r["kind"]] if k not in r]
    unknown = sorted(set(r) - KNOWN)
    if missing or unknown:
        sys.exit(f"ledger.py: {where}: missing {missing}, unknown {unknown}")
    if all(k in r for k in ("wins", "losses", "draws")) and r["wins"] + r["losses"] + r["draws"] != r["games"]:
        sys.exit(f"ledger.py: {where}: wins, losses and draws do not add up to the games")
    if "ptnml" in r and (len(r["ptnml"]) != 5 or 2 * sum(r["ptnml"]) != r["games"]):
        sys.exit(f"ledger.py: {where}: the pentanomial counts are not the games' pairs")
    if r["kind"] != "peer" and not ("wins" in r or "score" in r or "result_note" in r):
        sys.exit(f"ledger.py: {where}: neither the figures (score, or wins, losses and draws) nor a result_note")
    for field in ("failures", "time_losses"):
        if field in r and (len(r[field]) != 2 or min(r[field]) < 0 or sum(r[field]) > r["games"]):
            sys.exit(f"ledger.py: {where}: {field} is not [this side's, the opponent's] games")
    if ("elo" in r) != ("elo_error" in r):
        sys.exit(f"ledger.py: {where}: an Elo needs its error and an error its Elo")
    # A runner's Elo is its pentanomial counts' (rounded to 0.1, or to 1 in older records).
    if "ptnml" in r and "elo" in r and "result_note" not in r and pentanomial_elo(r["ptnml"]):
        elo, error, _, _ = pentanomial_elo(r["ptnml"])
        within = 0.51 if float(r["elo"]).is_integer() and float(r["elo_error"]).is_integer() else 0.101
        if abs(elo - r["elo"]) > within or abs(error - r["elo_error"]) > within:
            sys.exit(f"ledger.py: {where}: Elo {r['elo']} +/- {r['elo_error']}, but its pentanomial counts give "
                     f"{elo:.1f} +/- {error:.1f}")


def load(path, missing_ok=False):
    records = []
    if missing_ok and not os.path.exists(path):
        return records
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            r = json.loads(line)
            validate(r, f"{path}:{number}")
            records.append(r)
    return records


def number(x):
    return str(int(x)) if float(x) == int(x) else str(x)


def elo_text(r):
    if "elo" not in r:
        return ""
    sign = "+" if r["elo"] > 0 else ""
    return f"{sign}{number(r['elo'])} +/- {number(r['elo_error'])}"


def pinned_signatures():
    """Today's bench signatures (tests/bench_signature.txt): one quoted without a label."""
    with open(os.path.join(ROOT, "tests", "bench_signature.txt")) as f:
        return {int(line.split()[1]) for line in f if line.strip() and not line.startswith("#")}


def engine_text(r, bold):
    name = f"**`{r['engine']}`**" if bold else f"`{r['engine']}`"
    note = f", {r['engine_note']}" if "engine_note" in r else ""
    signature = ""
    if "signature" in r:
        today = r["signature"] in pinned_signatures()
        signature = f" ({r['signature']})" if today else f" ({r['signature']}, recorded in {r['recorded_in']})"
    return name + note + signature


def openings_text(r):
    text = r["openings"] + (f", `-srand {r['srand']}`" if "srand" in r else "")
    notes = [r["openings_note"]] if "openings_note" in r else []
    if "ptnml" in r:
        notes.append("pentanomial [" + ", ".join(str(n) for n in r["ptnml"]) + "]")
    return text + (f" ({'; '.join(notes)})" if notes else "")


def result_text(r):
    if all(k in r for k in ("wins", "losses", "draws")):
        return f"+{r['wins']} -{r['losses']} ={r['draws']}" + faults_text(r)
    return r.get("result_note", "")


def faults_text(r):
    """The games lost on time or by an engine's failure, when the record counts any."""
    text = ""
    for field, what in (("time_losses", "lost on time"), ("failures", "lost by an engine's failure")):
        ours, theirs = r.get(field, [0, 0])
        if ours or theirs:
            text += f"; {ours + theirs} {what} ({ours} by this side, {theirs} by the opponent)"
    return text


def strong(text, bold):
    return f"**{text}**" if bold and text else text


def peers_newest_first(records):
    return [r for r in reversed(records) if r["kind"] == "peer"]


def render_peers(records):
    """Every match against a peer, newest first; each opponent's newest in bold."""
    rows = ["| engine | opponent | openings | games | W-L-D | score | Elo |", "|---|---|---|---|---|---|---|"]
    seen = set()
    for r in peers_newest_first(records):
        newest = r["opponent"] not in seen
        seen.add(r["opponent"])
        rows.append(f"| {engine_text(r, newest)} | {r['opponent']} | {openings_text(r)} | {r['games']:,} | "
                    f"{result_text(r)} | {strong(number(r['score']) + '%', newest)} | {strong(elo_text(r), newest)} |")
    return "\n".join(rows)


def render_peers_today(records):
    """Each opponent's newest match: the standing README and docs quote."""
    rows = ["| opponent | network (bench signature) | recorded | openings | games | score | Elo |",
            "|---|---|---|---|---|---|---|"]
    seen = set()
    for r in peers_newest_first(records):
        if r["opponent"] in seen:
            continue
        seen.add(r["opponent"])
        rows.append(f"| {r['opponent']} | {engine_text(r, False)} | {r['recorded']} | {r['openings']} | "
                    f"{r['games']:,} | **{number(r['score'])}%** | {elo_text(r)} |")
    return "\n".join(rows)


def render_uci_elo(records, newest_only=False):
    """The UCI_Elo calibration, newest first; each level's newest in bold (the one in force).
    newest_only keeps those alone, by level."""
    rows = ["| network | bench | UCI_Elo | node budget | root noise (cp) | games | W-L-D | VBlitz's score | Elo difference "
            "| pentanomial | `-srand` |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    seen, body = set(), []
    for r in reversed(records):
        if r["kind"] != "uci_elo" or not r["opponent"].startswith("Stockfish"):
            continue
        newest = r["uci_elo"] not in seen
        seen.add(r["uci_elo"])
        if newest_only and not newest:
            continue
        name = f"**`{r['engine']}`**" if newest else f"`{r['engine']}`"
        budget = (f"{r['node_budget']:,}" if "node_budget" in r else "") + (
            f" ({r['engine_note']})" if "engine_note" in r else "")
        ptnml = "[" + ", ".join(str(n) for n in r["ptnml"]) + "]" if "ptnml" in r else ""
        score = strong(f"{r['score']:.1f}%", newest) if "score" in r else ""
        bench = r.get("signature", "")
        body.append((r["uci_elo"], f"| {name} | {bench} | {r['uci_elo']} | {budget} | {r.get('root_noise', '')} | "
                     f"{r['games']:,} | {result_text(r)} | {score} | {elo_text(r)} | {ptnml} | "
                     f"{r.get('srand', r.get('openings_note', ''))} |"))
    if newest_only:
        body.sort(key=lambda level_row: level_row[0])
    return "\n".join(rows + [row for _, row in body])


def render_carry_over(records):
    """A new default network at a level's budget against the one before it at its budget, oldest first."""
    rows = ["| network | UCI_Elo | its nodes | against | games | W-L-D | Elo | `-srand` |", "|---|---|---|---|---|---|---|---|"]
    for r in records:
        if r["kind"] == "uci_elo" and not r["opponent"].startswith("Stockfish"):
            note = f", {r['engine_note']}" if "engine_note" in r else ""
            rows.append(f"| `{r['engine']}`{note} | {r['uci_elo']} | {r['node_budget']:,} | {r['opponent']} | {r['games']:,} | "
                        f"{result_text(r) if 'wins' in r else ''} | {elo_text(r)} | {r.get('srand', '')} |")
    return "\n".join(rows)


def kept(r):
    """Whether a network or search record's decision kept what it tried."""
    return re.match(r"(\*\*)?(yes|the default)", r["decision"]) is not None


def match_result(r):
    """A record's result: its runs in words, or its figures."""
    if "result_note" in r:
        return r["result_note"]
    text = f"{elo_text(r)} ({result_text(r)}"
    return text + (f", `-srand {r['srand']}`)" if "srand" in r else ")")


def render_networks(records):
    """Every network that played the network it was meant to replace, oldest first; kept ones in bold."""
    rows = ["| network | data | shape | against | conditions | games | result | kept |", "|---|---|---|---|---|---|---|---|"]
    for r in records:
        if r["kind"] != "network":
            continue
        opponent = f"`{r['opponent']}`" if r["opponent"].startswith("vblitz-") else r["opponent"]
        rows.append(f"| {strong('`' + r['engine'] + '`', kept(r))} | {r['data']} | {r['shape']} | {opponent} | "
                    f"{r['conditions']} | {r['games']:,} | {match_result(r)} | {r['decision']} |")
    return "\n".join(rows)


def render_lineage(records):
    """The default networks, each with the gain its decision rested on: the lineage of today's."""
    rows = ["| default network | recorded | learned from | against its predecessor | games | peers at 10+0.1 then (Ethereal 12 unless named) |",
            "|---|---|---|---|---|---|"]
    for r in records:
        if r["kind"] == "network" and kept(r):
            rows.append(f"| `{r['engine']}` | {r['recorded']} | {r['data']} | {elo_text(r)} against "
                        f"{'`' + r['opponent'] + '`' if r['opponent'].startswith('vblitz-') else r['opponent']} | "
                        f"{r['games']:,} | {r.get('peers_note', '')} |")
    return "\n".join(rows)


def render_search(records):
    """Every search change tried, oldest first; kept ones in bold."""
    rows = ["| change | recorded | match | games | result | kept |", "|---|---|---|---|---|---|"]
    for r in records:
        if r["kind"] == "search":
            rows.append(f"| {strong(r['change'], kept(r))} | {r['recorded']}, recorded in {r['recorded_in']} | "
                        f"{r['conditions']} | {r['games']:,} | "
                        f"{match_result(r)} | {r['decision']} |")
    return "\n".join(rows)


TABLES = {"peers": render_peers, "peers-today": render_peers_today, "uci-elo": render_uci_elo,
          "uci-elo-today": lambda records: render_uci_elo(records, newest_only=True),
          "networks": render_networks, "uci-elo-carry-over": render_carry_over, "lineage": render_lineage, "search": render_search}
BLOCK = re.compile(r"<!-- ledger:([a-z-]+) -->\n(.*?)<!-- /ledger:\1 -->", re.S)


def blocks(text):
    """(name, body, span of the body) of each ledger table in a doc; a body ends in a newline."""
    return [(m.group(1), m.group(2), m.span(2)) for m in BLOCK.finditer(text)]


def rendered(name, records):
    return TABLES[name](records) + "\n"


def check(records, docs):
    bad = 0
    for doc in docs:
        with open(doc) as f:
            text = f.read()
        found = blocks(text)
        if not found:
            print(f"{doc}: no ledger tables")
            bad += 1
        for name, body, _ in found:
            if name not in TABLES:
                print(f"{doc}: unknown ledger table {name}")
                bad += 1
            elif body != rendered(name, records):
                print(f"{doc}: the {name} table differs from the ledger's rendering "
                      f"(python3 perf/ledger.py write {doc}):")
                for got, want in zip(body.split("\n") + [""], rendered(name, records).split("\n")):
                    if got != want:
                        print(f"  doc:    {got}\n  ledger: {want}")
                        break
                bad += 1
    return bad


def write(records, docs):
    for doc in docs:
        with open(doc) as f:
            text = f.read()
        for name, _, (start, end) in reversed(blocks(text)):
            text = text[:start] + rendered(name, records) + text[end:]
        with open(doc, "w") as f:
            f.write(text)


def parse_output(text):
    """Games, W-L-D, pentanomial and Elo from the summary fastchess or vblitz-match prints."""
    games = re.findall(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", text)
    ptnml = re.findall(r"Ptnml\(0-2\): \[([0-9, ]+)\]", text)
    elo = re.findall(r"Elo: ([-+]?[0-9.]+) \+/- ([0-9.]+)", text)
    # vblitz-match's count of each engine's faults (fastchess prints no such line).
    faults = re.findall(r"Engine failures: \d+ \(.+? (\d+), .+? (\d+)\), time losses: \d+ \(.+? (\d+), .+? (\d+)\)",
                        text)
    if not games:
        return None
    g, w, l, d = map(int, games[-1])
    out = {"games": g, "wins": w, "losses": l, "draws": d,
           "score": round(100 * (w + d / 2) / g, 1) if g else 50.0}
    if ptnml:
        out["ptnml"] = [int(x) for x in ptnml[-1].split(",")]
    if elo:
        out["elo"], out["elo_error"] = round(float(elo[-1][0]), 1), round(float(elo[-1][1]), 1)
    if faults:
        counts = [int(x) for x in faults[-1]]
        out["failures"], out["time_losses"] = counts[:2], counts[2:]
    return out


def print_sum(records, engine, opponent, conditions):
    """Prints the pairing's records and their sum; returns the exit status."""
    chosen = [r for r in records
              if r.get("engine") == engine and r.get("opponent") == opponent and conditions in r["conditions"]]
    if not chosen:
        print(f"ledger.py: no record of {engine} against {opponent}" +
              (f" with conditions containing {conditions!r}" if conditions else ""), file=sys.stderr)
        return 1
    without = [r for r in chosen if "ptnml" not in r]
    if without:
        print(f"ledger.py: {len(without)} of the records have no pentanomial counts (recorded "
              f"{', '.join(r['recorded'] for r in without)}): the sum needs them", file=sys.stderr)
        return 1
    for r in chosen:
        print(f"{r['recorded']}  -srand {r.get('srand', '?')}  {r['conditions']}: {r['games']} games, "
              f"+{r['wins']} -{r['losses']} ={r['draws']}, {r['ptnml']}{faults_text(r)}")
    ptnml = [sum(c) for c in zip(*(r["ptnml"] for r in chosen))]
    wins, losses, draws = (sum(r[k] for r in chosen) for k in ("wins", "losses", "draws"))
    figures = pentanomial_elo(ptnml)
    line = f"sum: {2 * sum(ptnml)} games, +{wins} -{losses} ={draws}, pentanomial {ptnml}"
    if figures:
        elo, error, los, score = figures
        line += f", {score:.1f}%, Elo {elo:+.1f} +/- {error:.1f}, LOS {los:.1f}%"
    print(line)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ledger", default=os.path.join(ROOT, "perf", "ledger.jsonl"))
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("render").add_argument("name", choices=sorted(TABLES))
    sub.add_parser("check").add_argument("docs", nargs="+")
    sub.add_parser("write").add_argument("docs", nargs="+")
    add = sub.add_parser("add")
    add.add_argument("--output", required=True, help="the runner's output")
    add.add_argument("--kind", choices=sorted(REQUIRED), default="peer")
    for field in ("engine", "opponent", "conditions", "openings"):
        add.add_argument("--" + field, required=True)
    for field in ("engine-note", "signature", "srand", "uci-elo", "node-budget", "data", "shape", "change"):
        add.add_argument("--" + field)
    add.add_argument("--decision", help="what the match decided (network and search: default 'pending', "
                                         "to be replaced when it is decided)")
    total = sub.add_parser("sum")
    total.add_argument("--engine", required=True)
    total.add_argument("--opponent", required=True)
    total.add_argument("--conditions", default="", help="only records whose conditions contain this text")
    args = parser.parse_args()
    records = load(args.ledger, missing_ok=args.command == "add")
    if args.command == "sum":
        sys.exit(print_sum(records, args.engine, args.opponent, args.conditions))
    if args.command == "render":
        print(TABLES[args.name](records))
    elif args.command == "check":
        bad = check(records, args.docs)
        print(f"ledger: {len(records)} records; {'tables differ' if bad else 'every table matches'}")
        sys.exit(1 if bad else 0)
    elif args.command == "write":
        write(records, args.docs)
    else:
        with open(args.output) as f:
            result = parse_output(f.read())
        if not result:
            sys.exit(f"ledger.py: no match summary in {args.output}")
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=7", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        r = {"kind": args.kind, "recorded": datetime.date.today().isoformat(), "recorded_in": commit or "unknown",
             "engine": args.engine, "opponent": args.opponent, "conditions": args.conditions,
             "openings": args.openings}
        if args.engine_note:
            r["engine_note"] = args.engine_note
        if args.signature:
            r["signature"] = int(args.signature)
        if args.srand:
            r["srand"] = int(args.srand)
        if args.uci_elo:
            r["uci_elo"] = int(args.uci_elo)
        if args.node_budget:
            r["node_budget"] = int(args.node_budget)
        if args.kind == "network":
            r["data"], r["shape"] = args.data or "not stated", args.shape or "not stated"
        if args.kind == "search":
            r["change"] = args.change or args.engine_note or "not stated"
        r.update(result)
        if args.decision or args.kind in ("network", "search"):
            r["decision"] = args.decision or "pending"
        validate(r, "the new record")
        with open(args.ledger, "a") as f:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
        print(f"ledger: recorded {r['engine']} against {r['opponent']}: {r['score']}% over {r['games']} games")


if __name__ == "__main__":
    main()
