#!/usr/bin/env python3
"""Scores UCI engines on an EPD test suite (bm/am) at a fixed time per position, the engines
running side by side (one core each) so they see the same conditions in the same run. With
--nodes the limit is a node count instead, which repeats exactly on a busy machine (for
comparing two builds of VBlitz).

usage: python3 perf/epd_test.py --suite SUITE.epd (e.g. the public wac.epd) [--ms 1000 | --nodes N]
           [--engine NAME=COMMAND ...]   (default: VBlitz and, when installed, Ethereal 12)
"""
import argparse
import os
import subprocess
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Uci:
    def __init__(self, command):
        self.proc = subprocess.Popen(command.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise RuntimeError("engine closed its output")

    def start(self):
        """UCI handshake with one thread and a 64 MB table, as both scripts measure."""
        self.send("uci")
        self.until("uciok")
        for option, value in (("Threads", "1"), ("Hash", "64")):
            self.send(f"setoption name {option} value {value}")
        self.send("isready")
        self.until("readyok")
        return self

    def search(self, go):
        """Sends `go`, reads to its bestmove; the words of the last info line that had nodes."""
        self.send(go)
        last = None
        while True:
            line = self.until("")
            if line.startswith("info depth") and " nodes " in line:
                last = line.split()
            if line.startswith("bestmove"):
                return last

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def run_engine(name, command, positions, go, results):
    engine = Uci(command).start()
    solved, failed = 0, []
    start = time.time()
    for fen, best, avoid, ident in positions:
        engine.send("ucinewgame")
        engine.send(f"position fen {fen}")
        engine.send(go)
        move = engine.until("bestmove").split()[1]
        ok = (not best or move in best) and move not in avoid
        solved += ok
        if not ok:
            failed.append(ident or fen)
    engine.close()
    results[name] = (solved, failed, time.time() - start)


def engines_to_compare(engine_args, vblitz):
    """The engines named by --engine NAME=COMMAND, or VBlitz beside Ethereal 12 when installed."""
    engines = dict(e.split("=", 1) for e in engine_args) or {"VBlitz": vblitz}
    if not engine_args and os.access("/usr/games/ethereal-chess", os.X_OK):
        engines["Ethereal 12"] = "/usr/games/ethereal-chess"
    return engines


def side_by_side(engines, work, *args):
    """Runs work(name, command, *args, results) for every engine at once, one thread each."""
    results = {}
    threads = [threading.Thread(target=work, args=(n, c, *args, results)) for n, c in engines.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", required=True, help="an EPD test suite with bm/am operations")
    parser.add_argument("--ms", type=int, default=1000)
    parser.add_argument("--nodes", type=int, help="a node limit per position instead of --ms")
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    parser.add_argument("--engine", action="append", default=[])
    args = parser.parse_args()
    vblitz = os.path.join(args.build, "vblitz")
    engines = engines_to_compare(args.engine, vblitz)
    lines = subprocess.run([vblitz, "epdmoves", args.suite], check=True, capture_output=True, text=True).stdout
    positions = []
    for line in lines.splitlines():
        fen, best, avoid, ident = line.split("\t")
        positions.append((fen, best.split(), avoid.split(), ident.strip('"')))
    go, limit = (f"go nodes {args.nodes}", f"{args.nodes} nodes") if args.nodes else (f"go movetime {args.ms}", f"{args.ms} ms")
    results = side_by_side(engines, run_engine, positions, go)
    print(f"{os.path.basename(args.suite)}: {len(positions)} positions, {limit} each, engines side by side\n")
    print("| engine | solved | seconds |\n|---|---|---|")
    for name, (solved, failed, seconds) in results.items():
        print(f"| {name} | {solved}/{len(positions)} | {seconds:.0f} |")
    for name, (solved, failed, seconds) in results.items():
        print(f"\n{name} missed: {' '.join(failed) if failed else 'none'}")


if __name__ == "__main__":
    main()
