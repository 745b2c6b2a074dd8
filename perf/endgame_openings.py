#!/usr/bin/env python3
"""Picks endings from training data as a match's opening set.

Reads the lines `vblitz data export SHARD...` prints ("FEN | score | result") and writes EPD
lines (the FEN's first four fields) of positions with MIN to MAX minor and major pieces, at least
one pawn and |score| <= MAX_SCORE, at least SPACING records apart (so mostly from different
games), shuffled by SEED, the first COUNT of them. A match from such a set measures a change
that only matters in endings, where most games from ordinary openings never arrive.

  vblitz data export SHARD... | python3 perf/endgame_openings.py --count 1000 --seed 7 > endings.epd
"""
import argparse
import random
import sys


def pick(lines, min_pieces=2, max_pieces=4, max_score=400, spacing=30, count=1000, seed=7):
    candidates = []
    last = -spacing
    for index, line in enumerate(lines):
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3:
            raise ValueError(f"line {index + 1}: expected 'FEN | score | result': {line.strip()!r}")
        fen, score = parts[0], int(parts[1])
        board = fen.split()[0]
        pieces = sum(board.count(c) for c in "nbrqNBRQ")
        pawns = board.count("p") + board.count("P")
        if min_pieces <= pieces <= max_pieces and pawns and abs(score) <= max_score and index - last >= spacing:
            candidates.append(" ".join(fen.split()[:4]))
            last = index
    random.Random(seed).shuffle(candidates)
    return candidates[:count]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--min-pieces", type=int, default=2)
    parser.add_argument("--max-pieces", type=int, default=4)
    parser.add_argument("--max-score", type=int, default=400)
    parser.add_argument("--spacing", type=int, default=30)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    try:
        chosen = pick(sys.stdin, args.min_pieces, args.max_pieces, args.max_score, args.spacing, args.count, args.seed)
    except ValueError as e:
        sys.exit(f"endgame_openings.py: {e}")
    if not chosen:
        sys.exit("endgame_openings.py: no position matched")
    sys.stdout.write("".join(f + "\n" for f in chosen))
    print(f"{len(chosen)} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
