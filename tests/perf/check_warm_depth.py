#!/usr/bin/env python3
"""perf/warm_depth.py with the engine itself: a few short games from the project's openings
(20,000 nodes a move, so a slow build searches the same trees) give a depth for every ply, and the position reached is searched to a depth in fewer nodes with
the game's hash table than after `ucinewgame` (the engine keeps its table between moves); an
engine that cannot run, or that exits, ends the script with status 1 and a message.

usage: check_warm_depth.py perf/warm_depth.py VBLITZ OPENINGS.epd"""
import os
import re
import stat
import subprocess
import sys
import tempfile

script, vblitz, openings = sys.argv[1:4]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True, timeout=300)


done = run(vblitz, openings, "--count", "4", "--plies", "6", "--nodes", "20000", "--depth", "8")
print(done.stdout, end="")
check(done.returncode == 0, f"exit status {done.returncode}: {done.stderr}")
depths = re.search(r"median depth by ply: (.*)", done.stdout)
check(depths and len(depths.group(1).split()) == 6 and all(float(d) >= 1 for d in depths.group(1).split()),
      "a depth for each of the six plies")
ratio = re.search(r"warm / cold: median ([0-9.]+) over (\d+) games", done.stdout)
check(ratio and int(ratio.group(2)) == 4, "a ratio over the four games")
check(ratio and 0 < float(ratio.group(1)) < 0.8, "the game's table saves no nodes")

with tempfile.TemporaryDirectory() as tmp:
    quitter = os.path.join(tmp, "quitter")
    with open(quitter, "w") as f:
        f.write("#!/bin/sh\nread line; echo 'id name quitter'; echo uciok; exit 0\n")
    os.chmod(quitter, stat.S_IRWXU)
    for engine in (quitter, os.path.join(tmp, "missing")):
        done = run(engine, openings, "--count", "1", "--plies", "1")
        check(done.returncode == 1 and done.stderr.startswith("warm_depth.py: "),
              f"{os.path.basename(engine)}: status {done.returncode}, stderr {done.stderr!r}")
sys.exit(1 if failures else 0)
