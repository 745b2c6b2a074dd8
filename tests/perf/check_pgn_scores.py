#!/usr/bin/env python3
"""perf/pgn_scores.py on hand-made games whose medians are worked out below: scores are
paired with the reply's (negated), mates and moves without a comment are skipped, a FEN with
Black to move shifts the sides, and games without the engine are ignored; with --by-move, each
side's times and depths fall in the band of ten moves their move number names (the FEN's
counts), mates included.

usage: check_pgn_scores.py perf/pgn_scores.py"""
import subprocess
import sys
import tempfile

GAMES = """[Event "t"]
[White "a"]
[Black "b"]
[Result "1-0"]

1. e4 {+1.50/10 0.100s} e5 {-0.20/9 0.100s} 2. Nf3 {+3.00/11 0.1s} Nc6 {+0.40/9 0.1s}
3. Bb5 {+M3/12 0.1s} a6 {-1.00/9 0.1s} 1-0

[Event "t"]
[White "b"]
[Black "a"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
[Result "0-1"]

1... e5 {+2.50/10 0.1s} 2. Nf3 {-1.00/10 0.1s} Nc6 {+1.20/10 0.1s} 3. Bc4 0-1

[Event "t"]
[White "c"]
[Black "d"]
[Result "1-0"]

1. e4 {+9.00/10 0.1s} e5 {+9.00/10 0.1s} 1-0
"""

# Engine a's moves and the replies (negated): e4 +1.50 / +0.20; Nf3 +3.00 / -0.40; Bb5 is a
# mate (skipped); e5 +2.50 / +1.00 (Black to move first); Nc6 +1.20 and Bc4 without a comment.
# Bands: +1 to +2: one move, +0.20; +2 to +4: two, median of -0.40 and +1.00 = +0.30.
# Engine b's moves: e5 -0.20 / -3.00; Nc6 +0.40 before a mate (skipped); a6 with no reply;
# Nf3 -1.00 / -1.20. Bands: -1 to -0.5: -1.20; -0.5 to +0.5: -3.00.
EXPECTED = ["| +1 to +2 | 1 | +0.20 |", "| +2 to +4 | 2 | +0.30 |",
            "| -1 to -0.5 | 1 | -1.20 |", "| -0.5 to +0.5 | 1 | -3.00 |"]

# With two more games for --by-move: a plays Black from move 10 (10...e5 2 s depth 20, 11...Nc6
# 1 s depth 22, 12...a6 3 s depth 24; e's 11.Nf3 0.5 s depth 14 and 12.Bb5 0.3 s depth 16), and
# White at move 95 (0.1 s depth 30; e's reply 0.05 s depth 8). Moves 1-10: a's five moves of the
# first two games (0.1 s; depths 10, 11, 12 with the mate, 10, 10) and 10...e5: median 0.1 s,
# depth 10.5; b's four (0.1 s; depths 9, 9, 9, 10): depth 9. Moves 11-20: a 2.0 s and 23, e
# 0.4 s and 15. From move 81: one move each.
MORE = """
[Event "t"]
[White "e"]
[Black "a"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 10"]
[Result "*"]

10... e5 {+0.10/20 2.000s} 11. Nf3 {+0.20/14 0.500s} Nc6 {+0.30/22 1.000s}
12. Bb5 {+0.10/16 0.300s} a6 {+0.10/24 3.000s} *

[Event "t"]
[White "a"]
[Black "e"]
[FEN "8/8/4k3/8/8/8/8/4K3 w - - 0 95"]
[Result "1/2-1/2"]

95. Kd2 {0.00/30 0.100s} Kd7 {0.00/8 0.050s} 1/2-1/2
"""
BY_MOVE = ["| 1-10 | 6 | 0.100 | 10.5 | 4 | 0.100 | 9 |", "| 11-20 | 2 | 2.000 | 23 | 2 | 0.400 | 15 |",
           "| 81 on | 1 | 0.100 | 30 | 1 | 0.050 | 8 |"]


def main():
    script = sys.argv[1]
    with tempfile.NamedTemporaryFile("w", suffix=".pgn") as f:
        f.write(GAMES)
        f.flush()
        run = subprocess.run([sys.executable, script, f.name, "--engine", "a"], capture_output=True, text=True)
        missing = [line for line in EXPECTED if line not in run.stdout.splitlines()]
        rows = [line for line in run.stdout.splitlines() if line.startswith("| ") and " to " in line]
        nobody = subprocess.run([sys.executable, script, f.name, "--engine", "z"], capture_output=True, text=True)
    if run.returncode != 0 or missing or len(rows) != 4 or nobody.returncode != 1:
        print(run.stdout + run.stderr)
        print("missing:", missing, "rows:", len(rows), "exit for an absent engine:", nobody.returncode)
        return 1
    with tempfile.NamedTemporaryFile("w", suffix=".pgn") as f:
        f.write(GAMES + MORE)
        f.flush()
        clock = subprocess.run([sys.executable, script, f.name, "--engine", "a", "--by-move"], capture_output=True,
                               text=True)
    rows = [line for line in clock.stdout.splitlines() if line.startswith("| ") and "moves" not in line]
    if clock.returncode != 0 or rows != BY_MOVE:
        print(clock.stdout + clock.stderr)
        print("expected:", BY_MOVE)
        return 1
    print("pgn_scores.py: 4 bands of scores and 3 of clock use as worked out by hand")
    return 0


if __name__ == "__main__":
    sys.exit(main())
