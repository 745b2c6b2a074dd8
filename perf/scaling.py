#!/usr/bin/env python3
"""How the engine scales with threads on this machine, in one run (perf/scaling.sh): for each
thread count, the speedtest's nodes per second, the time and nodes `bench` takes to reach a
depth (with a table sized for the threads), and the positions per second of self-play data
generation. Prints the table with each figure's ratio to one thread's, and writes the results
into OUT: the `--json` result of every bench and speedtest (docs/result.schema.json) and
scaling.json (schema vblitz-scaling/1), which perf/report.py draws.

The thread counts are 1, 2, 4, ... up to the machine's hardware threads, the hardware threads
themselves, and twice them (two threads per hardware thread). 82 s on 2 cores (1, 2 and 4
threads); on 16, six thread counts should take 4-5 minutes.

usage: python3 perf/scaling.py [--vblitz build/release/vblitz] [--out DIR] [--threads 1,2,4]
       [--depth 18] [--seconds 10] [--games-per-thread 150] [--hash-per-thread 64]
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_threads():
    n = os.cpu_count() or 1
    counts, t = [], 1
    while t < n:
        counts.append(t)
        t *= 2
    return counts + [n, 2 * n]


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"scaling.py: {' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return done.stdout + done.stderr


def datagen(vblitz, threads, games, directory):
    """(positions, seconds) of `datagen` playing `games` games at 1,250 nodes a move."""
    out = os.path.join(directory, f"datagen-t{threads}")
    start = time.monotonic()
    text = run([vblitz, "datagen", out, "--format", "chain", "--games", str(games), "--shard-games", str(games),
                "--nodes", "1250", "--threads", str(threads), "--seed", "1"])
    seconds = time.monotonic() - start
    match = re.search(r"(\d+) new positions", text)
    if not match:
        sys.exit(f"scaling.py: no position count in datagen's output:\n{text}")
    return int(match.group(1)), seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vblitz", default=os.path.join(ROOT, "build", "release", "vblitz"))
    parser.add_argument("--out", help="directory for the JSON results (default: none written)")
    parser.add_argument("--threads", help="comma-separated thread counts (default: 1, 2, 4, ..., N, 2N)")
    parser.add_argument("--depth", type=int, default=18, help="bench depth (default 18)")
    parser.add_argument("--seconds", type=int, default=10, help="speedtest seconds (default 10)")
    parser.add_argument("--games-per-thread", type=int, default=150, help="datagen games a thread (default 150)")
    parser.add_argument("--hash-per-thread", type=int, default=64, help="bench and speedtest table MB a thread")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")] if args.threads else default_threads()
    if any(t < 1 for t in threads) or args.depth < 1 or args.seconds < 1 or args.games_per_thread < 1:
        sys.exit("scaling.py: thread counts, depth, seconds and games must be positive")
    out_dir = args.out
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    runs = []
    document = None
    print(f"{'threads':>7} {'hash MB':>8} {'speedtest Mnps':>16} {'bench ' + str(args.depth) + ' s':>14} "
          f"{'nodes to depth':>15} {'datagen pos/s':>15}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for t in threads:
            hash_mb = args.hash_per_thread * t
            files = {}
            for kind, cmd in (("speedtest", ["speedtest", str(t), str(hash_mb), str(args.seconds)]),
                              ("bench", ["bench", str(args.depth), str(t), str(hash_mb)])):
                path = os.path.join(out_dir or tmp, f"{kind}-t{t}.json")
                run([args.vblitz] + cmd + ["--json", path])
                with open(path) as f:
                    files[kind] = json.load(f)
            document = document or files["bench"]
            positions, seconds = datagen(args.vblitz, t, args.games_per_thread * t, tmp)
            bench = files["bench"]["bench"]
            row = {"threads": t, "hash_mb": hash_mb,
                   "speedtest_nodes_per_second": files["speedtest"]["speedtest"]["nodes_per_second"],
                   "bench_time_ms": bench["time_ms"], "bench_nodes": bench["nodes"],
                   "datagen_games": args.games_per_thread * t, "datagen_positions": positions,
                   "datagen_positions_per_second": round(positions / seconds)}
            runs.append(row)
            first = runs[0]
            ratio = lambda key, inverse=False: (first[key] / row[key]) if inverse else (row[key] / first[key])  # noqa: E731
            print(f"{t:>7} {hash_mb:>8} {row['speedtest_nodes_per_second'] / 1e6:>9.2f} ({ratio('speedtest_nodes_per_second'):4.2f}x)"
                  f" {bench['time_ms'] / 1000:>7.2f} ({ratio('bench_time_ms', True):4.2f}x) {bench['nodes']:>15}"
                  f" {row['datagen_positions_per_second']:>7} ({ratio('datagen_positions_per_second'):4.2f}x)",
                  flush=True)
    scaling = {"schema": "vblitz-scaling/1",
               "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "build": document["build"], "machine": document["machine"],
               "settings": {"bench_depth": args.depth, "speedtest_seconds": args.seconds,
                            "datagen_nodes": 1250, "eval_mode": document["settings"]["eval_mode"],
                            "network": document["settings"]["network"]},
               "runs": runs}
    if out_dir:
        path = os.path.join(out_dir, "scaling.json")
        with open(path, "w") as f:
            json.dump(scaling, f, indent=2)
            f.write("\n")
        print(f"{path}: {len(runs)} thread counts; `python3 perf/report.py {out_dir} --html scaling.html` draws them")


if __name__ == "__main__":
    main()
