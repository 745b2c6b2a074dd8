#!/usr/bin/env python3
"""Where the network is confident, is it right? A validation that matches how games are lost.

Against stronger engines VBlitz's +2 to +4 (pawns, its own scale) is answered with about 0: the
search walks into positions its network rates too high (docs/strength.md, "Where the games are
lost"). A validation loss does not show that; this does. Two steps:

  reference EXPORT.txt OUT.txt [--engine /usr/games/stockfish] [--option 'Use NNUE=false']
            [--depth 12] [--count 1000] [--seed 1]
      picks COUNT positions from `vblitz data export` lines ("FEN | white score | result"),
      as many from each band of the recorded score (so confident positions are not rare), scores
      each with the reference engine searching to DEPTH, and writes "FEN | reference cp" lines
      (White's side; mates and positions the engine did not score are left out).
  measure REFERENCE.txt [--vblitz build/release/vblitz] [--eval-file NET.nnue ...]
      VBlitz's static evaluation of each position (`eval`, "Final evaluation") with each network
      (the default when none is given), then for each band of it the median reference score, and
      two figures a network should bring towards zero: the median reference score where VBlitz
      says +2 to +4 minus its own median there scaled to the reference (the overrating, in the
      reference's pawns), and the median reference score in the +2 to +4 band plus the one in
      the -4 to -2 band (the asymmetry: 0 for an evaluation wrong alike on both sides).

Scores in the output are pawns; VBlitz's scale is its own (about twice Stockfish's).
"""
import argparse
import random
import statistics
import subprocess
import sys

BANDS = [(-9, -4), (-4, -2), (-2, -1), (-1, -0.5), (-0.5, 0.5), (0.5, 1), (1, 2), (2, 4), (4, 9)]


def band_of(pawns):
    for lo, hi in BANDS:
        if lo <= pawns < hi:
            return (lo, hi)
    return None


class Engine:
    """A UCI engine on pipes, one command at a time."""

    def __init__(self, command, options=()):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.until(lambda line: line == "uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.until(lambda line: line == "readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, done):
        lines = []
        for line in self.process.stdout:
            line = line.strip()
            lines.append(line)
            if done(line):
                return lines
        sys.exit(f"overrating.py: the engine ended before answering ({lines[-3:]})")

    def close(self):
        try:
            self.send("quit")
            self.process.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.process.kill()


def read_export(path):
    """(fen, white score) of each `vblitz data export` line."""
    out = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            parts = [p.strip() for p in line.split("|")]
            if len(parts) < 2:
                sys.exit(f"overrating.py: {path}:{number}: expected 'FEN | score ...': {line.strip()[:80]!r}")
            out.append((parts[0], int(parts[1])))
    return out


def pick(records, count, seed):
    """As many positions from each band of the recorded score (in pawns), shuffled by the seed."""
    by_band = {}
    for fen, score in records:
        band = band_of(score / 100)
        if band:
            by_band.setdefault(band, []).append(fen)
    rng = random.Random(seed)
    for fens in by_band.values():
        rng.shuffle(fens)
    picked, share = [], max(1, count // max(1, len(by_band)))
    for band in BANDS:
        picked += by_band.get(band, [])[:share]
    return picked[:count]


def reference_score(engine, fen, depth):
    """The engine's score of the position in White's centipawns, or None (a mate, no score)."""
    engine.send(f"position fen {fen}")
    engine.send(f"go depth {depth}")
    score = None
    for line in engine.until(lambda line: line.startswith("bestmove")):
        words = line.split()
        if "score" in words and words[0] == "info":
            at = words.index("score")
            score = int(words[at + 2]) if words[at + 1] == "cp" else None
    if score is None:
        return None
    return score if fen.split()[1] == "w" else -score


def vblitz_eval(engine, fen):
    engine.send(f"position fen {fen}")
    engine.send("eval")
    line = engine.until(lambda line: line.startswith("Final evaluation:"))[-1]
    return int(line.split(":")[1].split()[0])


def parse_option(text):
    name, _, value = text.partition("=")
    return name.strip(), value.strip()


def measure(pairs):
    """The bands table and the two figures from (vblitz cp, reference cp) pairs."""
    rows, medians = [], {}
    for lo, hi in BANDS:
        inside = [(v, r) for v, r in pairs if lo <= v / 100 < hi]
        if not inside:
            continue
        ref = statistics.median(r for _, r in inside) / 100
        own = statistics.median(v for v, _ in inside) / 100
        medians[(lo, hi)] = (own, ref)
        rows.append((lo, hi, len(inside), own, ref))
    # The scale of VBlitz against the reference over the positions both call small (|v| < 2).
    calm = [(v, r) for v, r in pairs if abs(v) < 200 and v != 0]
    scale = statistics.median(r / v for v, r in calm if r * v > 0) if any(r * v > 0 for v, r in calm) else 0.5
    over = asym = None
    if (2, 4) in medians:
        own, ref = medians[(2, 4)]
        over = own * scale - ref
        if (-4, -2) in medians:
            asym = ref + medians[(-4, -2)][1]
    return rows, scale, over, asym


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ref = sub.add_parser("reference")
    ref.add_argument("export")
    ref.add_argument("out")
    ref.add_argument("--engine", default="/usr/games/stockfish")
    ref.add_argument("--option", action="append", default=[], help="NAME=VALUE, e.g. 'Use NNUE=false'")
    ref.add_argument("--depth", type=int, default=12)
    ref.add_argument("--count", type=int, default=1000)
    ref.add_argument("--seed", type=int, default=1)
    mea = sub.add_parser("measure")
    mea.add_argument("reference")
    mea.add_argument("--vblitz", default="build/release/vblitz")
    mea.add_argument("--eval-file", action="append", default=[])
    args = parser.parse_args()

    if args.command == "reference":
        fens = pick(read_export(args.export), args.count, args.seed)
        engine = Engine([args.engine], [parse_option(o) for o in args.option])
        kept = 0
        with open(args.out, "w") as out:
            for fen in fens:
                score = reference_score(engine, fen, args.depth)
                if score is not None:
                    out.write(f"{fen} | {score}\n")
                    kept += 1
        engine.close()
        print(f"overrating: {kept} of {len(fens)} positions scored at depth {args.depth} by {args.engine}")
        return

    positions = read_export(args.reference)
    for net in args.eval_file or [None]:
        engine = Engine([args.vblitz], [("EvalFile", net)] if net else [])
        pairs = [(vblitz_eval(engine, fen), score) for fen, score in positions]
        engine.close()
        rows, scale, over, asym = measure(pairs)
        print(f"{net or 'the default network'}: {len(pairs)} positions; a VBlitz pawn is {scale:.2f} of the "
              f"reference's where both are calm")
        print("| VBlitz's evaluation | positions | its median | the reference's median |")
        print("|---|---|---|---|")
        for lo, hi, n, own, refm in rows:
            print(f"| {lo:+g} to {hi:+g} | {n} | {own:+.2f} | {refm:+.2f} |")
        print(f"overrating at +2 to +4: {over:+.2f} pawns" if over is not None else "overrating: no position at +2 to +4")
        if asym is not None:
            print(f"asymmetry (+2 to +4 and -4 to -2 reference medians added): {asym:+.2f} pawns")
        print()


if __name__ == "__main__":
    main()
