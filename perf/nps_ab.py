#!/usr/bin/env python3
"""Speed of two or more builds of VBlitz at a given hash size: nodes per second to finish a
fixed depth on two middlegame positions, the builds interleaved round by round (this machine is
shared and noisy), medians reported. For changes that leave the tree alone (same node counts),
such as the order of memory accesses; `bench` uses a small table, this one a WAC-sized one.

usage: python3 perf/nps_ab.py [--rounds 7] [--hash 64] [--depth 16] BINARY BINARY...
"""
import argparse
import statistics

from epd_test import Uci

FENS = [
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2r3k1/pp3ppp/2n1b3/q1bpP3/3N4/P1P2Q2/1P1B2PP/R4R1K w - - 0 20",
]


def nodes_and_ms(binary, hash_mb, depth):
    """Total nodes and milliseconds of fresh depth-limited searches of the positions."""
    nodes = ms = 0
    for fen in FENS:
        engine = Uci(binary).start()
        engine.send(f"setoption name Hash value {hash_mb}")
        engine.send(f"position fen {fen}")
        last = engine.search(f"go depth {depth}")
        engine.close()
        nodes += int(last[last.index("nodes") + 1])
        ms += int(last[last.index("time") + 1])
    return nodes, max(ms, 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--hash", type=int, default=64)
    parser.add_argument("--depth", type=int, default=16)
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    speeds = {b: [] for b in args.binaries}
    nodes = {}
    for _ in range(args.rounds):
        for b in args.binaries:
            n, ms = nodes_and_ms(b, args.hash, args.depth)
            nodes[b] = n
            speeds[b].append(n * 1000 // ms)
    print(f"| build | median nodes/s | nodes | runs (Hash {args.hash} MB, depth {args.depth}) |")
    print("|---|---|---|---|")
    for b in args.binaries:
        runs = " ".join(str(s) for s in speeds[b])
        print(f"| {b} | {int(statistics.median(speeds[b]))} | {nodes[b]} | {runs} |")


if __name__ == "__main__":
    main()
