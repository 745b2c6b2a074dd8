#!/usr/bin/env python3
"""perf/overrating.py against stand-in engines whose answers are known (ctest `overrating`).

The reference stand-in scores each position with a value from a table (side to move's view,
one position a mate); the VBlitz stand-in evaluates each at twice that, except five positions
the reference calls equal that it calls +3. So: the black-to-move scores come back in White's
view, the mate is left out, every band of the export is sampled, a VBlitz pawn is half a
reference pawn, and the overrating at +2 to +4 is +1.50 reference pawns.

usage: check_overrating.py perf/overrating.py
"""
import json
import os
import subprocess
import sys
import tempfile

script = sys.argv[1]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


STAND_IN = r'''
import json, sys
table = json.load(open(sys.argv[1]))
role = sys.argv[2]
fen = None
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name stand-in\nuciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        fen = " ".join(words[2:])
    elif words[0] == "go":
        ref = table[fen]["ref"]
        if ref is None:
            print("info depth 5 score mate 3 pv e2e4", flush=True)
        else:
            stm = ref if fen.split()[1] == "w" else -ref
            print(f"info depth 5 score cp {stm} pv e2e4", flush=True)
        print("bestmove e2e4", flush=True)
    elif words[0] == "eval":
        print("Classic evaluation: 0 (white side)")
        print(f"Final evaluation: {table[fen]['vblitz']} (white side)", flush=True)
    elif words[0] == "quit":
        break
'''

with tempfile.TemporaryDirectory() as tmp:
    table, export = {}, []
    # Calm positions (both agree, VBlitz at twice the scale), on both sides and in every band.
    for i, ref in enumerate([-300, -150, -80, -40, -10, 10, 40, 80, 150, 300, -220, 220]):
        fen = f"4k3/8/8/8/8/8/8/4K3 {'w' if i % 2 else 'b'} - - 0 {i + 1}"
        table[fen] = {"ref": ref, "vblitz": 2 * ref}
        export.append(f"{fen} | {2 * ref} | 1/2-1/2")
    # Five positions the reference calls equal that VBlitz calls +3.
    for i in range(5):
        fen = f"4k3/8/8/8/8/8/8/3K4 w - - 0 {i + 1}"
        table[fen] = {"ref": 0, "vblitz": 300}
        export.append(f"{fen} | 300 | 1-0")
    mate = "4k3/8/8/8/8/8/8/2K5 w - - 0 1"
    table[mate] = {"ref": None, "vblitz": 2000}
    export.append(f"{mate} | 150 | 1-0")
    json.dump(table, open(os.path.join(tmp, "table.json"), "w"))
    open(os.path.join(tmp, "stand_in.py"), "w").write(STAND_IN)
    for role in ("reference", "vblitz"):
        path = os.path.join(tmp, role)
        open(path, "w").write(f"#!/bin/sh\nexec {sys.executable} {tmp}/stand_in.py {tmp}/table.json {role}\n")
        os.chmod(path, 0o755)
    open(os.path.join(tmp, "export.txt"), "w").write("\n".join(export) + "\n")

    out = os.path.join(tmp, "reference.txt")
    done = subprocess.run([sys.executable, script, "reference", os.path.join(tmp, "export.txt"), out, "--engine",
                           os.path.join(tmp, "reference"), "--count", "100", "--depth", "5"],
                          capture_output=True, text=True)
    check(done.returncode == 0, f"reference failed: {done.stderr}")
    lines = open(out).read().splitlines() if os.path.exists(out) else []
    scored = {line.split(" | ")[0]: int(line.split(" | ")[1]) for line in lines}
    check(len(scored) == len(table) - 1, f"{len(scored)} positions scored, want {len(table) - 1} (the mate left out)")
    check(mate not in scored, "the mate was scored")
    check(all(scored[fen] == table[fen]["ref"] for fen in scored), "a score is not the reference's in White's view")

    done = subprocess.run([sys.executable, script, "measure", out, "--vblitz", os.path.join(tmp, "vblitz")],
                          capture_output=True, text=True)
    check(done.returncode == 0, f"measure failed: {done.stderr}")
    text = done.stdout
    print(text, end="")
    check("a VBlitz pawn is 0.50 of the reference's" in text, "the scale is not 0.50")
    check("overrating at +2 to +4: +1.50 pawns" in text, "the overrating is not +1.50")
    check("| +2 to +4 | 6 | +3.00 | +0.00 |" in text, "the +2 to +4 band's row")
    # A stand-in whose +3 positions the reference agrees with: no overrating.
    for fen in table:
        if table[fen]["vblitz"] == 300:
            table[fen]["ref"] = 150
    json.dump(table, open(os.path.join(tmp, "table.json"), "w"))
    fixed = os.path.join(tmp, "fixed.txt")
    open(fixed, "w").write("".join(f"{f} | {table[f]['ref']}\n" for f in scored))
    done = subprocess.run([sys.executable, script, "measure", fixed, "--vblitz", os.path.join(tmp, "vblitz")],
                          capture_output=True, text=True)
    check("overrating at +2 to +4: +0.00 pawns" in done.stdout, f"an honest network overrates: {done.stdout}")

for f in failures:
    print("FAIL:", f)
print("overrating: " + ("failures" if failures else "every check passes"))
sys.exit(1 if failures else 0)
