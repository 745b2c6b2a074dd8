#!/usr/bin/env python3
"""The match ledger (ctest `ledger_tables`): every ledger table in the docs is the ledger's
rendering, an edited row (a figure changed by hand) fails the check, a record whose figures
disagree is refused, and a runner's summary becomes a record with its own figures.

usage: check_ledger.py LEDGER_PY LEDGER DOC...
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

ledger_py, ledger, docs = sys.argv[1], sys.argv[2], sys.argv[3:]
failures = []


def run(*args):
    return subprocess.run([sys.executable, ledger_py, *args], capture_output=True, text=True)


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


done = run("--ledger", ledger, "check", *docs)
print(done.stdout, end="")
check(done.returncode == 0, f"the docs' tables differ from the ledger's:\n{done.stdout}{done.stderr}")
with tempfile.TemporaryDirectory() as tmp:
    # A figure edited by hand in a rendered row.
    doc = os.path.join(tmp, "doc.md")
    text = open(docs[0]).read()
    start = text.index("<!-- ledger:")
    row = text.index("\n| ", text.index("|---", start)) + 1
    end = text.index("\n", row)
    edited = text[row:end].replace("%", "1%", 1)
    check(edited != text[row:end], "no row to edit")
    open(doc, "w").write(text[:row] + edited + text[end:])
    check(run("--ledger", ledger, "check", doc).returncode == 1, "an edited row passed the check")
    # A record whose wins, losses and draws do not add up to its games.
    bad = os.path.join(tmp, "bad.jsonl")
    records = [json.loads(line) for line in open(ledger) if line.strip()]
    broken = dict(records[-1], games=records[-1]["games"] + 2)
    with open(bad, "w") as f:
        f.write(json.dumps(broken) + "\n")
    check(run("--ledger", bad, "render", "peers").returncode != 0, "a record with inconsistent figures was read")
    # A runner's summary (vblitz-match's lines) becomes a record with its figures.
    out = os.path.join(tmp, "out.txt")
    # (vblitz-match's figures for the candidate's first 278 clock games)
    open(out, "w").write("Results of new vs old (10+0.1, o.epd):\nElo: 20.02 +/- 24.41, LOS: 94.7 %, DrawRatio: 38.8 %\n"
                         "Games: 278, Wins: 76, Losses: 60, Draws: 142, Points: 147.0 (52.88 %)\n"
                         "Ptnml(0-2): [1, 35, 54, 45, 4]\n")
    copy = os.path.join(tmp, "ledger.jsonl")
    shutil.copy(ledger, copy)
    done = run("--ledger", copy, "add", "--output", out, "--engine", "vblitz-0123456789ab", "--opponent", "Ethereal 12",
               "--conditions", "10+0.1", "--openings", "o", "--srand", "3")
    check(done.returncode == 0, f"add failed: {done.stderr}")
    added = json.loads(open(copy).read().splitlines()[-1])
    for key, value in (("games", 278), ("wins", 76), ("losses", 60), ("draws", 142), ("score", 52.9),
                       ("elo", 20.0), ("elo_error", 24.4), ("ptnml", [1, 35, 54, 45, 4]), ("srand", 3)):
        check(added.get(key) == value, f"added record's {key}: {added.get(key)!r}, want {value!r}")
    # A record that breaks the rules (a UCI_Elo match without its level) is refused, and the
    # ledger is left as it was.
    before = open(copy).read()
    done = run("--ledger", copy, "add", "--output", out, "--kind", "uci_elo", "--engine", "vblitz-0123456789ab",
               "--opponent", "Stockfish 15.1 at UCI_Elo 1500", "--conditions", "10+0.1", "--openings", "o")
    check(done.returncode != 0 and open(copy).read() == before, "a record without its level was appended")
    table = run("--ledger", copy, "render", "peers").stdout.splitlines()
    check(table[2].startswith("| **`vblitz-0123456789ab`** | Ethereal 12 |"), f"the newest row: {table[2]}")
    # An Elo that is not its pentanomial counts' (a figure edited, or counts of another match) is
    # refused; every record of the ledger passed the same check when it was read above.
    edited = dict(added, elo=added["elo"] + 1)
    with open(bad, "w") as f:
        f.write(json.dumps(edited) + "\n")
    done = run("--ledger", bad, "render", "peers")
    check(done.returncode != 0 and "pentanomial counts give" in done.stderr, "an Elo unlike its counts was read")
    # `sum`: one record gives back the runner's own figures; two records of a pairing add up.
    runs = [r for r in records if "ptnml" in r and "elo" in r and "result_note" not in r and "engine" in r]
    check(len(runs) > 10, "too few runner records in the ledger")
    for r in runs:
        one = os.path.join(tmp, "one.jsonl")
        open(one, "w").write(json.dumps(r) + "\n")
        done = run("--ledger", one, "sum", "--engine", r.get("engine", ""), "--opponent", r.get("opponent", ""))
        line = done.stdout.splitlines()[-1] if done.stdout else ""
        decimals = 0 if float(r["elo"]).is_integer() and float(r["elo_error"]).is_integer() else 1
        try:
            elo, error = (float(x) for x in line.split("Elo ")[1].split(", LOS")[0].split(" +/- "))
            same = abs(elo - r["elo"]) <= 0.5 * 10 ** -decimals + 0.051 and \
                abs(error - r["elo_error"]) <= 0.5 * 10 ** -decimals + 0.051
        except (IndexError, ValueError):
            same = False
        check(done.returncode == 0 and same and f"sum: {r['games']} games" in line,
              f"the sum of one record ({r['recorded']}, {r.get('engine')}): {line!r}, the runner said "
              f"{r['elo']} +/- {r['elo_error']}")
    second = dict(added, srand=4, games=100, wins=30, losses=20, draws=50, score=55.0, ptnml=[2, 10, 20, 14, 4])
    second.pop("elo"), second.pop("elo_error")
    with open(copy, "a") as f:
        f.write(json.dumps(second) + "\n")
    done = run("--ledger", copy, "sum", "--engine", "vblitz-0123456789ab", "--opponent", "Ethereal 12")
    check(done.returncode == 0 and "sum: 378 games, +106 -80 =192, pentanomial [3, 45, 74, 59, 8]" in done.stdout,
          f"two records summed: {done.stdout}{done.stderr}")
    # vblitz-match's count of each engine's faults goes into the record, and the rows say it.
    faulty = os.path.join(tmp, "faulty.txt")
    open(faulty, "w").write(open(out).read() + "Engine failures: 1 (new 0, old 1), time losses: 4 (new 0, old 4)\n")
    done = run("--ledger", copy, "add", "--output", faulty, "--kind", "uci_elo", "--uci-elo", "2000", "--engine",
               "vblitz-0123456789ab", "--opponent", "Stockfish 15.1 at UCI_Elo 2000", "--conditions", "10+0.1",
               "--openings", "o")
    added = json.loads(open(copy).read().splitlines()[-1])
    check(done.returncode == 0 and added.get("failures") == [0, 1] and added.get("time_losses") == [0, 4],
          f"faults recorded: {added.get('failures')!r}, {added.get('time_losses')!r} {done.stderr}")
    row = run("--ledger", copy, "render", "uci-elo").stdout.splitlines()[2]
    check("4 lost on time (0 by this side, 4 by the opponent); 1 lost by an engine's failure (0 by this side, "
          "1 by the opponent)" in row, f"the faults in the row: {row}")
    check("failures" not in json.loads(open(copy).read().splitlines()[-3]), "faults recorded with no such line")
    done = run("--ledger", copy, "sum", "--engine", "vblitz-0123456789ab", "--opponent", "Ethereal 12",
               "--conditions", "40000 nodes")
    check(done.returncode != 0 and "no record" in done.stderr, "a sum of no record did not fail")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
