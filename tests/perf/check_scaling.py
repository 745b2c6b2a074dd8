#!/usr/bin/env python3
"""perf/scaling.py in a small run (ctest `scaling_script`): at 1 and 2 threads it writes a
bench and a speedtest result per thread count and scaling.json, and its figures are the
engine's own: one thread's nodes to depth are `vblitz bench` on that table size (the search is
deterministic on one thread), each row's datagen positions are those `vblitz datagen` writes for
the same games and seed (the same on any thread count), and the speedtest figures are the
result files'.

usage: check_scaling.py VBLITZ
"""
import json
import os
import re
import subprocess
import sys
import tempfile

vblitz = sys.argv[1]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "results")
    done = subprocess.run([sys.executable, os.path.join(root, "perf", "scaling.py"), "--vblitz", vblitz, "--out", out,
                           "--threads", "1,2", "--depth", "6", "--seconds", "1", "--games-per-thread", "6",
                           "--hash-per-thread", "4"], capture_output=True, text=True, timeout=600)
    print(done.stdout)
    check(done.returncode == 0, f"scaling.py exited {done.returncode}: {done.stderr}")
    with open(os.path.join(out, "scaling.json")) as f:
        doc = json.load(f)
    check(doc["schema"] == "vblitz-scaling/1", f"schema {doc['schema']}")
    runs = doc["runs"]
    check([r["threads"] for r in runs] == [1, 2], f"thread counts {[r['threads'] for r in runs]}")
    bench = subprocess.run([vblitz, "bench", "6", "1", "4"], capture_output=True, text=True, check=True).stdout
    nodes = int(re.search(r"Nodes searched: (\d+)", bench).group(1))
    check(runs[0]["bench_nodes"] == nodes, f"1 thread's nodes to depth {runs[0]['bench_nodes']}, bench {nodes}")
    for r in runs:
        t = r["threads"]
        check(r["hash_mb"] == 4 * t, f"table {r['hash_mb']} MB at {t} threads")
        with open(os.path.join(out, f"speedtest-t{t}.json")) as f:
            speed = json.load(f)
        check(speed["speedtest"]["nodes_per_second"] == r["speedtest_nodes_per_second"], f"speedtest figure at {t}")
        check(speed["settings"]["threads"] == t, f"speedtest threads at {t}")
        with open(os.path.join(out, f"bench-t{t}.json")) as f:
            b = json.load(f)
        check(b["bench"]["nodes"] == r["bench_nodes"] and b["settings"]["hash_mb"] == 4 * t, f"bench file at {t}")
        check(b["settings"]["threads"] == t and b["bench"]["depth"] == 6, f"bench threads and depth at {t}")
        data = subprocess.run([vblitz, "datagen", os.path.join(tmp, f"direct-{t}"), "--format", "chain", "--games",
                               str(6 * t), "--shard-games", str(6 * t), "--nodes", "1250", "--threads", "1",
                               "--seed", "1"], capture_output=True, text=True, check=True)
        data = data.stdout + data.stderr
        positions = int(re.search(r"(\d+) new positions", data).group(1))
        check(r["datagen_positions"] == positions, f"datagen positions at {t}: {r['datagen_positions']}, direct {positions}")
        check(r["datagen_positions_per_second"] > 0, f"datagen rate at {t}")
    check(subprocess.run([sys.executable, os.path.join(root, "perf", "scaling.py"), "--vblitz", vblitz, "--threads", "0"],
                         capture_output=True).returncode != 0, "a thread count of 0 is refused")
for f in failures:
    print("FAIL:", f)
print("scaling.py:", "ok" if not failures else f"{len(failures)} failures")
sys.exit(1 if failures else 0)
