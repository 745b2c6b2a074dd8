#!/usr/bin/env python3
"""Cluster mode on one machine (docs/cluster.md): the plain build, the MPI build at -np 1 and
at -np 2 (one thread per process), interleaved round by round (this machine is shared and
noisy), medians reported: nodes per second and time to a fixed depth on fresh searches of a few
middlegame positions, then the exchange's message rate from a -np 2 bench. With
--share-depths it also times -np 2 at each ClusterShareDepth given.

usage: python3 perf/cluster_scaling.py --plain build/release/vblitz --mpi build/mpi/vblitz
           [--launch "mpirun --oversubscribe --bind-to none --mca btl self,vader"]
           [--rounds 5] [--depth 13] [--share-depths 4,6,8,10] [--epd FILE --positions N]

--epd takes the first N positions of an EPD file instead of the four built-in ones: time to
depth varies a lot from position to position, and more positions steady the sum.
"""
import argparse
import re
import statistics
import subprocess
import time

from epd_test import Uci
from nps_ab import FENS

POSITIONS = FENS + [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/1b1nbppp/pp1ppn2/8/2PNP3/2N1BP2/PP1QB1PP/R4RK1 w - - 0 12",
]


def epd_positions(path, count):
    """The first `count` positions of an EPD file, as FENs (its operations dropped)."""
    with open(path) as f:
        fens = [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()]
    return fens[:count]


def search(command, depth, positions, share_depth=None):
    """Wall seconds to `go depth` and the nodes of the last info line, summed over the positions."""
    seconds = nodes = 0
    for fen in positions:
        engine = Uci(command).start()
        if share_depth:
            engine.send(f"setoption name ClusterShareDepth value {share_depth}")
        engine.send(f"position fen {fen}")
        engine.send("isready")
        engine.until("readyok")
        start = time.monotonic()
        last = engine.search(f"go depth {depth}")
        seconds += time.monotonic() - start
        engine.close()
        nodes += int(last[last.index("nodes") + 1])
    return seconds, nodes


def exchange_rate(launch, mpi, depth):
    """Per process: exchange rounds, entries and bytes sent per second in a -np 2 bench."""
    out = subprocess.run(f"{launch} -np 2 {mpi} bench {depth}".split(), capture_output=True, text=True,
                         check=True).stdout
    ms = int(re.search(r"^Total time \(ms\): (\d+)", out, re.M).group(1))
    rows = re.findall(r"^Process (\d+): nodes (\d+) .*entries sent (\d+), received (\d+), stored (\d+), "
                      r"rounds (\d+)", out, re.M)
    return ms, [tuple(map(int, r)) for r in rows]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plain", required=True)
    parser.add_argument("--mpi", required=True)
    parser.add_argument("--launch", default="mpirun --oversubscribe --bind-to none --mca btl self,vader")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--depth", type=int, default=13)
    parser.add_argument("--share-depths", default="")
    parser.add_argument("--epd", help="take the positions from this EPD file")
    parser.add_argument("--positions", type=int, default=16, help="how many of --epd's positions")
    args = parser.parse_args()
    positions = epd_positions(args.epd, args.positions) if args.epd else POSITIONS
    configs = {"plain": (args.plain, None), "mpi -np 1": (f"{args.launch} -np 1 {args.mpi}", None),
               "mpi -np 2": (f"{args.launch} -np 2 {args.mpi}", None)}
    for d in filter(None, args.share_depths.split(",")):
        configs[f"mpi -np 2, share depth {d}"] = (f"{args.launch} -np 2 {args.mpi}", int(d))
    runs = {name: [] for name in configs}
    for _ in range(args.rounds):
        for name, (command, share) in configs.items():
            runs[name].append(search(command, args.depth, positions, share))
    print(f"Depth {args.depth} on {len(positions)} positions, fresh engine each, 1 thread per process, "
          f"{args.rounds} rounds interleaved; medians.\n")
    print("| configuration | time to depth (s) | nodes/s | runs (s) |")
    print("|---|---:|---:|---|")
    med = {}
    for name, r in runs.items():
        t = statistics.median(s for s, _ in r)
        nps = statistics.median(n / s for s, n in r)
        med[name] = (t, nps)
        print(f"| {name} | {t:.2f} | {nps:,.0f} | {' '.join(f'{s:.2f}' for s, _ in r)} |")
    one, two, plain = med["mpi -np 1"], med["mpi -np 2"], med["plain"]
    print(f"\n-np 2 / -np 1: nodes/s {two[1] / one[1]:.2f}x, time to depth {one[0] / two[0]:.2f}x faster")
    print(f"-np 1 / plain: nodes/s {one[1] / plain[1]:.3f}x")
    ms, rows = exchange_rate(args.launch, args.mpi, args.depth - 1)
    print(f"\nExchange in `bench {args.depth - 1}` at -np 2 ({ms} ms):\n")
    print("| process | nodes | rounds/s | entries sent/s | bytes sent/s (ring + all-reduce) |")
    print("|---|---:|---:|---:|---:|")
    for rank, nodes, sent, _received, _stored, rounds in rows:
        per_s = 1000 / ms
        print(f"| {rank} | {nodes} | {rounds * per_s:,.0f} | {sent * per_s:,.0f} | "
              f"{(sent * 16 + rounds * 16) * per_s:,.0f} |")


if __name__ == "__main__":
    main()
