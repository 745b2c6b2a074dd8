#!/usr/bin/env python3
"""Depth over a game's consecutive moves: how much an engine's search gains from what the
searches of the moves before left in its hash table.

From each position of an EPD file the engine plays PLIES moves against itself, each a search of
MOVETIME milliseconds (or NODES nodes) without `ucinewgame` in between (as in a game); the median
depth it reports is printed for each ply. Then the position reached is searched to DEPTH twice, once with the
table of that game (warm) and once after `ucinewgame` (cold), and the median ratio of their node
counts is printed: the share of the tree the earlier searches saved.

usage: python3 perf/warm_depth.py ENGINE OPENINGS.epd [--count N] [--plies K] [--movetime MS]
                                  [--nodes N] [--depth D] [--option NAME=VALUE]...
One thread and Hash 64, as in the project's matches. Exit status 1 when the engine fails.
"""
import argparse
import re
import statistics
import subprocess
import sys


class Engine:
    def __init__(self, command, options):
        try:
            self.p = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        except OSError as e:
            sys.exit(f"warm_depth.py: cannot run {command}: {e.strerror}")
        self.send("uci")
        self.until("uciok")
        for name, value in [("Threads", "1"), ("Hash", "64")] + options:
            self.send(f"setoption name {name} value {value}")
        self.ready()

    def send(self, line):
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except BrokenPipeError:
            sys.exit(f"warm_depth.py: the engine exited (sending {line!r})")

    def until(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"warm_depth.py: the engine ended its output while waiting for {token}")
            lines.append(line.rstrip("\n"))
            if line.startswith(token):
                return lines

    def ready(self):
        self.send("isready")
        self.until("readyok")

    def search(self, fen, moves, go):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(go)
        lines = self.until("bestmove")
        done = [l for l in lines if l.startswith("info") and " depth " in l and " nodes " in l
                and "lowerbound" not in l and "upperbound" not in l]
        depth = int(re.search(r" depth (\d+)", done[-1]).group(1)) if done else None
        nodes = int(re.search(r" nodes (\d+)", done[-1]).group(1)) if done else None
        return lines[-1].split()[1], depth, nodes

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("openings")
    parser.add_argument("--count", type=int, default=40, help="positions (the file's first N)")
    parser.add_argument("--plies", type=int, default=12)
    parser.add_argument("--movetime", type=int, default=100)
    parser.add_argument("--nodes", type=int, default=0,
                        help="search each ply to this many nodes instead (the same on any machine or build)")
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, a UCI option")
    args = parser.parse_args()
    options = []
    for o in args.option:
        if "=" not in o:
            sys.exit(f"warm_depth.py: --option takes NAME=VALUE, not {o!r}")
        options.append(tuple(o.split("=", 1)))
    fens = []
    with open(args.openings) as f:
        for line in f:
            fields = line.split(";")[0].split()
            if len(fields) >= 4:
                fens.append(" ".join(fields[:4]) + " 0 1")
    fens = fens[:args.count]
    if not fens or args.plies < 1 or args.movetime < 1 or args.depth < 1 or args.nodes < 0:
        sys.exit("warm_depth.py: no positions, or a count, plies, movetime or depth below 1")
    go = f"go nodes {args.nodes}" if args.nodes else f"go movetime {args.movetime}"
    engine = Engine(args.engine, options)
    by_ply = [[] for _ in range(args.plies)]
    ratios = []
    for fen in fens:
        engine.send("ucinewgame")
        engine.ready()
        moves = []
        for ply in range(args.plies):
            move, depth, _ = engine.search(fen, moves, go)
            if depth is not None:
                by_ply[ply].append(depth)
            if move in ("(none)", "0000"):
                break
            moves.append(move)
        else:
            _, _, warm = engine.search(fen, moves, f"go depth {args.depth}")
            engine.send("ucinewgame")
            engine.ready()
            _, _, cold = engine.search(fen, moves, f"go depth {args.depth}")
            if warm and cold:
                ratios.append(warm / cold)
    engine.quit()
    each = f"{args.nodes} nodes" if args.nodes else f"{args.movetime} ms"
    print(f"{args.engine}: {len(fens)} positions, {args.plies} plies of {each} each")
    print("median depth by ply: " + " ".join(f"{statistics.median(d):g}" if d else "-" for d in by_ply))
    if ratios:
        print(f"nodes to depth {args.depth} at the last position, warm / cold: median {statistics.median(ratios):.3f} "
              f"over {len(ratios)} games")


if __name__ == "__main__":
    main()
