#!/usr/bin/env python3
"""Lazy SMP's time-to-depth speed-up per position: for each position, the time one thread and
T threads take to complete `go depth D` (a fresh table each time: `ucinewgame`), the runs of
each thread count interleaved, and the speed-up t(1) / t(T). Prints the median speed-up over
the positions with its quartiles, and the ratio of the summed times. Several binaries are
measured interleaved position by position (same load for each), so their figures compare; with
several binaries it also prints each one's T-thread times against the first's, position by
position (the geometric mean of the ratios with its standard error). That comparison is the
sharper one when the binaries search alike on one thread: their one-thread times then differ
only by the machine's noise, which the speed-ups carry and the paired ratio does not.

usage: python3 perf/time_to_depth.py VBLITZ [VBLITZ ...] [--positions perf/data/openings.epd]
       [--count 100] [--depth 19] [--threads 2] [--runs 1] [--option NAME=VALUE ...] [--csv FILE]
"""
import argparse
import math
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Engine:
    def __init__(self, binary, options):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.threads = 0

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"error: the engine ended before '{prefix}'")
            if line.startswith(prefix):
                return line

    def seconds_to_depth(self, fen, depth, threads):
        if threads != self.threads:
            self.send(f"setoption name Threads value {threads}")
            self.threads = threads
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.until("readyok")
        start = time.monotonic()
        self.send(f"go depth {depth}")
        self.until("bestmove")
        return time.monotonic() - start

    def close(self):
        self.send("quit")
        self.p.wait()


def quartiles(values):
    q = statistics.quantiles(values, n=4)
    return q[0], statistics.median(values), q[2]


def load_fens(path, count):
    with open(path) as f:
        return [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()][:count]


def measure(binaries, fens, depth, threads, runs=1, options=()):
    """Per binary: the speed-up t(1) / t(threads) of each position, the summed times
    [t(1), t(threads)] and each position's times (t(1), t(threads)); binaries interleaved
    position by position."""
    engines = [Engine(b, options) for b in binaries]
    speedups = [[] for _ in engines]
    totals = [[0.0, 0.0] for _ in engines]
    times = [[] for _ in engines]
    for i, fen in enumerate(fens):
        for k, e in enumerate(engines):
            one, many = [], []
            for _ in range(runs):
                one.append(e.seconds_to_depth(fen, depth, 1))
                many.append(e.seconds_to_depth(fen, depth, threads))
            t1, tn = statistics.median(one), statistics.median(many)
            speedups[k].append(t1 / tn)
            totals[k][0] += t1
            totals[k][1] += tn
            times[k].append((t1, tn))
        print(f"{i + 1}/{len(fens)}", file=sys.stderr, end="\r")
    for e in engines:
        e.close()
    return speedups, totals, times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--positions", default=os.path.join(ROOT, "perf", "data", "openings.epd"))
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--depth", type=int, default=19)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1, help="runs of each position and thread count (median)")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, a UCI option for every engine")
    parser.add_argument("--csv", help="write each position's times: binary, position, t(1), t(T) in seconds")
    args = parser.parse_args()
    options = [tuple(o.split("=", 1)) for o in args.option]
    fens = load_fens(args.positions, args.count)
    if len(fens) < 2:
        sys.exit("error: fewer than 2 positions")
    speedups, totals, times = measure(args.binaries, fens, args.depth, args.threads, args.runs, options)
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("binary,position,t1,tT\n")
            for k, b in enumerate(args.binaries):
                for i, (t1, tn) in enumerate(times[k]):
                    f.write(f"{b},{i + 1},{t1:.4f},{tn:.4f}\n")
    print(f"time to depth {args.depth}, {args.threads} threads against 1, {len(fens)} positions of "
          f"{os.path.relpath(args.positions, ROOT)}, {args.runs} run(s) each, interleaved:")
    print("| binary | median speed-up (quartiles) | summed times, 1 / T threads |\n|---|---|---|")
    for k, b in enumerate(args.binaries):
        lo, mid, hi = quartiles(speedups[k])
        print(f"| {b} | {mid:.2f}x ({lo:.2f}-{hi:.2f}) | {totals[k][0]:.1f} s / {totals[k][1]:.1f} s = "
              f"{totals[k][0] / totals[k][1]:.2f}x |")
    if len(args.binaries) > 1:
        print(f"\n{args.threads}-thread time to depth against {args.binaries[0]}, position by position "
              "(geometric mean of the ratios, +/- standard error):")
        for k, b in enumerate(args.binaries[1:], start=1):
            logs = [math.log(mine[1] / first[1]) for mine, first in zip(times[k], times[0])]
            print(f"  {b}: {math.exp(statistics.mean(logs)):.3f}x +/- "
                  f"{statistics.stdev(logs) / math.sqrt(len(logs)):.3f}")


if __name__ == "__main__":
    main()
