#!/usr/bin/env python3
"""perf/depth_nodes.py with the engine itself: the same engine under two names gives the same
medians; the nodes summed at the last depth are those the engine reports searching each position
alone (a new process each, `go depth`); each growth figure is the ratio of the medians it stands
between; an engine that cannot run, a malformed --option, and a missing EPD file end the script
with status 1 and a message.

usage: check_depth_nodes.py perf/depth_nodes.py VBLITZ OPENINGS.epd"""
import re
import subprocess
import sys

script, vblitz, openings = sys.argv[1:4]
DEPTH, COUNT = 7, 3
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True, timeout=300)


done = run("--depth", str(DEPTH), "--positions", openings, "--count", str(COUNT),
           "--engine", f"first={vblitz}", "--engine", f"second={vblitz}")
print(done.stdout, end="")
check(done.returncode == 0, f"exit status {done.returncode}: {done.stderr}")
rows = re.findall(r"^\| (\d+) \| ([^|]*) \| ([^|]*) \|$", done.stdout, re.M)
check([int(r[0]) for r in rows] == list(range(1, DEPTH + 1)), "a row for every depth")
check(all(r[1] == r[2] and r[1] for r in rows), "the same engine under two names, the same medians")
medians = [int(r[1].split()[0]) for r in rows if r[1]]
for d in range(1, len(rows)):
    growth = re.search(r"\(x([0-9.]+)\)", rows[d][1])
    check(growth and abs(float(growth.group(1)) - medians[d] / medians[d - 1]) < 0.006,
          f"depth {d + 1}'s growth is its median over depth {d}'s")

# The sum, from the engine alone: a new process per position, its last completed depth's nodes.
alone = 0
with open(openings) as f:
    fens = [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()][:COUNT]
for fen in fens:
    engine = subprocess.Popen([vblitz], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    engine.stdin.write(f"setoption name Hash value 64\nposition fen {fen}\ngo depth {DEPTH}\n")
    engine.stdin.flush()  # input stays open until bestmove: its end would stop the search
    lines = []
    for line in engine.stdout:
        lines.append(line)
        if line.startswith("bestmove"):
            break
    engine.communicate("quit\n", timeout=60)
    exact = [l for l in lines if re.match(rf"info depth {DEPTH} ", l) and "bound" not in l]
    check(bool(exact), f"the engine alone reports depth {DEPTH} for {fen}")
    alone += int(re.search(r" nodes (\d+)", exact[-1]).group(1)) if exact else 0
sums = re.findall(rf"^\| (first|second) \| (\d+) \|", done.stdout, re.M)
check(len(sums) == 2 and all(int(s[1]) == alone for s in sums), f"the sums {sums} are the engine's own {alone}")

for args, what in ((["--engine", "gone=/nonexistent/engine"], "an engine that cannot run"),
                   (["--option", "Hash"], "an option without a value"),
                   (["--positions", "/nonexistent.epd"], "a missing EPD file")):
    bad = run("--depth", "2", "--count", "1", *args)
    check(bad.returncode == 1 and bad.stderr.startswith("depth_nodes.py: "),
          f"{what}: status {bad.returncode}, stderr {bad.stderr!r}")
sys.exit(1 if failures else 0)
