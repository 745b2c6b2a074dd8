#!/usr/bin/env python3
"""Search efficiency: nodes each UCI engine needs to finish a fixed depth on VBlitz's bench
positions (fresh hash per position), engines side by side, one thread each.

usage: python3 perf/depth_nodes.py [--depth 10] [--engine NAME=COMMAND ...]
"""
import argparse
import os
import re

from epd_test import Uci, engines_to_compare, side_by_side

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench_fens():
    with open(os.path.join(ROOT, "uci", "bench_positions.h")) as f:
        return re.findall(r'^\s*"([^"]+)",', f.read(), re.M)


def run(name, command, fens, depth, results):
    engine = Uci(command).start()
    total = 0
    for fen in fens:
        engine.send("ucinewgame")
        engine.send(f"position fen {fen}")
        engine.send("isready")
        engine.until("readyok")
        engine.send(f"go depth {depth}")
        nodes = 0
        while True:
            line = engine.until("")
            m = re.search(r" nodes (\d+)", line)
            if m:
                nodes = int(m.group(1))
            if line.startswith("bestmove"):
                break
        total += nodes
    engine.close()
    results[name] = total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    parser.add_argument("--engine", action="append", default=[])
    args = parser.parse_args()
    engines = engines_to_compare(args.engine, os.path.join(args.build, "vblitz"))
    fens = bench_fens()
    results = side_by_side(engines, run, fens, args.depth)
    print(f"Nodes to finish depth {args.depth} on the {len(fens)} bench positions (sum):\n")
    print("| engine | nodes |\n|---|---|")
    for name, nodes in results.items():
        print(f"| {name} | {nodes} |")


if __name__ == "__main__":
    main()
