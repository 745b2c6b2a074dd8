#!/usr/bin/env python3
"""The match ledger (perf/ledger.jsonl): every match the project reports, one JSON record a line,
oldest first, and the tables the docs show, rendered from it.

  render NAME              print one table (peers, peers-today)
  check DOC...             exit 1 when a table between `<!-- ledger:NAME -->` and
                           `<!-- /ledger:NAME -->` in a doc differs from its rendering
  write DOC...             rewrite those tables from the ledger
  add --output FILE ...    append a record from a match runner's output (perf/match.sh does it)

A record (kind "peer": VBlitz against another engine; "network", "search", "uci_elo") has: kind, recorded (date), recorded_in
(commit), engine (network name), optional engine_note and signature (bench), opponent,
conditions, openings, optional srand, openings_note and ptnml (pentanomial counts), games,
optional wins, losses, draws (or result_note), score (percent), optional elo and elo_error
(95%), optional decision; a "uci_elo" record also has uci_elo (the level), and may have
node_budget and root_noise (its engine_note is a note on the budget).

usage: python3 perf/ledger.py [--ledger perf/ledger.jsonl] COMMAND ...
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Kinds: a peer (another engine), a network against the one before, a search change (a build
# against the one before), a UCI_Elo level against Stockfish's.
REQUIRED = {kind: ["kind", "recorded", "engine", "opponent", "conditions", "openings", "games", "score"]
            for kind in ("peer", "network", "search", "uci_elo")}
REQUIRED["uci_elo"].append("uci_elo")
KNOWN = {"kind", "recorded", "recorded_in", "engine", "engine_note", "signature", "opponent", "conditions",
         "openings", "srand", "openings_note", "ptnml", "games", "wins", "losses", "draws", "result_note",
         "score", "elo", "elo_error", "decision", "uci_elo", "node_budget", "root_noise"}


def load(path, missing_ok=False):
    records = []
    if missing_ok and not os.path.exists(path):
        return records
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            r = json.loads(line)
            where = f"{path}:{number}"
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
            records.append(r)
    return records


def number(x):
    return str(int(x)) if float(x) == int(x) else str(x)


def elo_text(r):
    if "elo" not in r:
        return ""
    sign = "+" if r["elo"] > 0 else ""
    return f"{sign}{number(r['elo'])} +/- {number(r['elo_error'])}"


def engine_text(r, bold):
    name = f"**`{r['engine']}`**" if bold else f"`{r['engine']}`"
    note = f", {r['engine_note']}" if "engine_note" in r else ""
    signature = f" ({r['signature']})" if "signature" in r else ""
    return name + note + signature


def openings_text(r):
    text = r["openings"] + (f", `-srand {r['srand']}`" if "srand" in r else "")
    notes = [r["openings_note"]] if "openings_note" in r else []
    if "ptnml" in r:
        notes.append("pentanomial [" + ", ".join(str(n) for n in r["ptnml"]) + "]")
    return text + (f" ({'; '.join(notes)})" if notes else "")


def result_text(r):
    if all(k in r for k in ("wins", "losses", "draws")):
        return f"+{r['wins']} -{r['losses']} ={r['draws']}"
    return r.get("result_note", "")


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
    rows = ["| opponent | network (bench signature) | recorded | games | score | Elo |", "|---|---|---|---|---|---|"]
    seen = set()
    for r in peers_newest_first(records):
        if r["opponent"] in seen:
            continue
        seen.add(r["opponent"])
        rows.append(f"| {r['opponent']} | {engine_text(r, False)} | {r['recorded']} | {r['games']:,} | "
                    f"**{number(r['score'])}%** | {elo_text(r)} |")
    return "\n".join(rows)


def render_uci_elo(records):
    """The UCI_Elo calibration, newest first; each level's newest in bold (the one in force)."""
    rows = ["| network | UCI_Elo | node budget | root noise (cp) | games | W-L-D | VBlitz's score | Elo difference "
            "| pentanomial | `-srand` |", "|---|---|---|---|---|---|---|---|---|---|"]
    seen = set()
    for r in reversed(records):
        if r["kind"] != "uci_elo":
            continue
        newest = r["uci_elo"] not in seen
        seen.add(r["uci_elo"])
        name = f"**`{r['engine']}`**" if newest else f"`{r['engine']}`"
        budget = (f"{r['node_budget']:,}" if "node_budget" in r else "") + (
            f" ({r['engine_note']})" if "engine_note" in r else "")
        ptnml = "[" + ", ".join(str(n) for n in r["ptnml"]) + "]" if "ptnml" in r else ""
        score = strong(f"{r['score']:.1f}%", newest)
        rows.append(f"| {name} | {r['uci_elo']} | {budget} | {r.get('root_noise', '')} | {r['games']:,} | {result_text(r)} | "
                    f"{score} | {elo_text(r)} | {ptnml} | {r.get('srand', '')} |")
    return "\n".join(rows)


TABLES = {"peers": render_peers, "peers-today": render_peers_today, "uci-elo": render_uci_elo}
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
    if not games:
        return None
    g, w, l, d = map(int, games[-1])
    out = {"games": g, "wins": w, "losses": l, "draws": d,
           "score": round(100 * (w + d / 2) / g, 1) if g else 50.0}
    if ptnml:
        out["ptnml"] = [int(x) for x in ptnml[-1].split(",")]
    if elo:
        out["elo"], out["elo_error"] = round(float(elo[-1][0]), 1), round(float(elo[-1][1]), 1)
    return out


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
    for field in ("engine-note", "signature", "srand", "decision", "uci-elo"):
        add.add_argument("--" + field)
    args = parser.parse_args()
    records = load(args.ledger, missing_ok=args.command == "add")
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
        r.update(result)
        if args.decision:
            r["decision"] = args.decision
        with open(args.ledger, "a") as f:
            f.write(json.dumps(r) + "\n")
        load(args.ledger)  # the new record is well formed
        print(f"ledger: recorded {r['engine']} against {r['opponent']}: {r['score']}% over {r['games']} games")


if __name__ == "__main__":
    main()
