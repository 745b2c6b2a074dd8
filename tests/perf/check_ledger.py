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
    open(out, "w").write("Results of new vs old (10+0.1, o.epd):\nElo: -12.34 +/- 20.00, LOS: 10.0 %, DrawRatio: 40.0 %\n"
                         "Games: 200, Wins: 50, Losses: 57, Draws: 93, Points: 96.5 (48.25 %)\n"
                         "Ptnml(0-2): [10, 20, 40, 20, 10]\n")
    copy = os.path.join(tmp, "ledger.jsonl")
    shutil.copy(ledger, copy)
    done = run("--ledger", copy, "add", "--output", out, "--engine", "vblitz-0123456789ab", "--opponent", "Ethereal 12",
               "--conditions", "10+0.1", "--openings", "o", "--srand", "3")
    check(done.returncode == 0, f"add failed: {done.stderr}")
    added = json.loads(open(copy).read().splitlines()[-1])
    for key, value in (("games", 200), ("wins", 50), ("losses", 57), ("draws", 93), ("score", 48.2),
                       ("elo", -12.3), ("elo_error", 20.0), ("ptnml", [10, 20, 40, 20, 10]), ("srand", 3)):
        check(added.get(key) == value, f"added record's {key}: {added.get(key)!r}, want {value!r}")
    # A record that breaks the rules (a UCI_Elo match without its level) is refused, and the
    # ledger is left as it was.
    before = open(copy).read()
    done = run("--ledger", copy, "add", "--output", out, "--kind", "uci_elo", "--engine", "vblitz-0123456789ab",
               "--opponent", "Stockfish 15.1 at UCI_Elo 1500", "--conditions", "10+0.1", "--openings", "o")
    check(done.returncode != 0 and open(copy).read() == before, "a record without its level was appended")
    table = run("--ledger", copy, "render", "peers").stdout.splitlines()
    check(table[2].startswith("| **`vblitz-0123456789ab`** | Ethereal 12 |"), f"the newest row: {table[2]}")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
