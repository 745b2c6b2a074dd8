#!/usr/bin/env python3
"""Search efficiency: the nodes each UCI engine needs to finish each depth, from an empty hash
table (`ucinewgame` before every position), engines side by side, one thread and Hash 64 each.

For every depth up to DEPTH it prints each engine's median nodes over the positions and the
growth from the depth before (the effective branching factor), then the nodes summed at DEPTH
and each engine's median nodes per second (over the searches of at least 50 ms). The positions
are VBlitz's bench positions, or the first COUNT of an EPD file (e.g. endings from
perf/endgame_openings.py, where the trees of different searches part most).

usage: python3 perf/depth_nodes.py [--depth 10] [--positions EPD] [--count N]
                                   [--engine NAME=COMMAND ...] [--option NAME=VALUE ...]
--option is sent to every engine (e.g. `--option 'Use NNUE=false'` for Stockfish's classical
evaluation; an engine without the option ignores it). Exit status 1 when an engine fails.
"""
import argparse
import os
import re
import statistics
import sys

from epd_test import Uci, engines_to_compare, side_by_side

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXACT = re.compile(r"^info .*\bdepth (\d+)\b.*\bnodes (\d+)\b.*\btime (\d+)\b")
FAST = 50  # ms: shorter searches give no nodes per second worth the name


def bench_fens():
    with open(os.path.join(ROOT, "uci", "bench_positions.h")) as f:
        return re.findall(r'^\s*"([^"]+)",', f.read(), re.M)


def epd_fens(path, count):
    fens = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 4:
                fens.append(" ".join(fields[:4]) + " 0 1")
            if len(fens) == count:
                break
    return fens


def run(name, command, fens, depth, options, results):
    """results[name]: per position, {depth: (nodes, ms)} of the lines of completed iterations."""
    try:
        engine = Uci(command).start()
        for option in options:
            option_name, value = option.split("=", 1)
            engine.send(f"setoption name {option_name} value {value}")
        searches = []
        for fen in fens:
            engine.send("ucinewgame")
            engine.send(f"position fen {fen}")
            engine.send("isready")
            engine.until("readyok")
            engine.send(f"go depth {depth}")
            done = {}
            while True:
                line = engine.until("")
                m = EXACT.match(line)
                if m and "lowerbound" not in line and "upperbound" not in line:
                    done[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
                if line.startswith("bestmove"):
                    break
            searches.append(done)
        engine.close()
        results[name] = searches
    except (OSError, RuntimeError, BrokenPipeError) as e:
        results[name] = f"{command}: {e}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--positions", help="an EPD file instead of the bench positions")
    parser.add_argument("--count", type=int, default=0, help="the first N positions (default all)")
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    parser.add_argument("--engine", action="append", default=[])
    parser.add_argument("--option", action="append", default=[])
    args = parser.parse_args()
    if args.depth < 1:
        sys.exit("depth_nodes.py: --depth must be at least 1")
    for option in args.option:
        if "=" not in option:
            sys.exit(f"depth_nodes.py: --option {option!r} is not NAME=VALUE")
    engines = engines_to_compare(args.engine, os.path.join(args.build, "vblitz"))
    try:
        fens = epd_fens(args.positions, args.count) if args.positions else bench_fens()[: args.count or None]
    except OSError as e:
        sys.exit(f"depth_nodes.py: {args.positions}: {e.strerror}")
    if not fens:
        sys.exit("depth_nodes.py: no positions")
    results = side_by_side(engines, run, fens, args.depth, args.option)
    failed = {n: r for n, r in results.items() if isinstance(r, str)}
    for name, why in failed.items():
        print(f"depth_nodes.py: {name} failed: {why}", file=sys.stderr)
    if failed:
        sys.exit(1)

    where = args.positions or "the bench positions"
    print(f"Nodes to finish each depth from an empty table, {len(fens)} positions of {where} "
          f"(median; x: growth from the depth before):\n")
    names = list(engines)
    print("| depth | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    previous = {}
    for d in range(1, args.depth + 1):
        cells = []
        for name in names:
            nodes = [s[d][0] for s in results[name] if d in s]
            if len(nodes) * 2 < len(fens):  # most searches skipped or never reported it
                cells.append("")
                previous.pop(name, None)
                continue
            median = statistics.median(nodes)
            growth = f" (x{median / previous[name]:.2f})" if previous.get(name) else ""
            cells.append(f"{median:.0f}{growth}")
            previous[name] = median
        print(f"| {d} | " + " | ".join(cells) + " |")
    print(f"\n| engine | nodes at depth {args.depth} (sum) | nodes per second (median) |\n|---|---|---|")
    for name in names:
        total = sum(s[args.depth][0] for s in results[name] if args.depth in s)
        rates = [n * 1000 / t for n, t in (s[args.depth] for s in results[name] if args.depth in s) if t >= FAST]
        rate = f"{statistics.median(rates):.0f}" if rates else f"(no search of {FAST} ms)"
        print(f"| {name} | {total} | {rate} |")


if __name__ == "__main__":
    main()
