#!/usr/bin/env python3
"""How far two engines' scores agree in the games of a match: for each band of ENGINE's score
on its move, the median of the opponent's score on the reply (negated, so both are from
ENGINE's side), and the reverse. Reads the `{score/depth time}` comments vblitz-match,
fastchess and cutechess write after each move; mate scores and moves without a comment are
skipped.

usage: python3 perf/pgn_scores.py GAMES.pgn [GAMES.pgn ...] [--engine vblitz] [--by-move]

--by-move prints instead where each side's clock went: for each band of ten moves of the game
(the FEN's move number counts, so moves 1-10 of a game that starts at move 9 are none), the
median time and the median depth of ENGINE's moves and of its opponents'. Engines that search
alike spend alike; a side whose depth falls behind where both play fast loses its endings.

A well-matched pair of evaluations gives rows that rise on both sides of zero. An engine
whose positive scores the opponent does not share (its +2 to +4 answered by about 0) finds
and plays into its own evaluation's errors: the search picks the moves whose scores are
too high.
"""
import argparse
import re
import signal
import statistics
import sys

BANDS = [(-9, -4), (-4, -2), (-2, -1), (-1, -0.5), (-0.5, 0.5), (0.5, 1), (1, 2), (2, 4), (4, 9)]
MOVE_SCORE = re.compile(r"\{([+-]?)(M?)(\d+(?:\.\d+)?)/(\d+)(?:\s+(\d+(?:\.\d+)?)s)?[^}]*\}")
LAST_BAND = 81  # moves from here on share one band


def moves_of(text):
    """Yields (white, black, first mover 'w' or 'b', first move number, [(score or None, depth,
    seconds or None) per commented move]); a mate's score is None."""
    for block in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        if "White" not in tags or "\n\n" not in block:
            continue
        fen = tags.get("FEN", "").split()
        first = fen[1] if len(fen) > 1 else "w"
        number = int(fen[5]) if len(fen) > 5 and fen[5].isdigit() else 1
        found = []
        for sign, mate, value, depth, seconds in MOVE_SCORE.findall(block.split("\n\n", 1)[1]):
            score = None if mate else (-1 if sign == "-" else 1) * float(value)
            found.append((score, int(depth), float(seconds) if seconds else None))
        yield tags["White"], tags["Black"], first, number, found


def games(text):
    """Yields (white, black, first mover 'w' or 'b', [score or None per commented move])."""
    for white, black, first, _, found in moves_of(text):
        yield white, black, first, [score for score, _, _ in found]


def clock_use(texts, engine):
    """{band's first move: ([(seconds, depth)] of the engine's moves, the same of its opponents')}."""
    bands = {}
    for text in texts:
        for white, black, first, number, found in moves_of(text):
            if engine not in (white, black):
                continue
            for ply, (_, depth, seconds) in enumerate(found):
                side = "wb"[(ply + (first == "b")) % 2]
                move = number + (ply + (first == "b")) // 2
                band = min((move - 1) // 10 * 10 + 1, LAST_BAND)
                mover = white if side == "w" else black
                if seconds is not None:
                    bands.setdefault(band, ([], []))[mover != engine].append((seconds, depth))
    return bands


def clock_table(bands, engine):
    def cells(moves):
        if not moves:
            return "0 | | "
        return (f"{len(moves)} | {statistics.median(s for s, _ in moves):.3f} | "
                f"{statistics.median(d for _, d in moves):g}")

    lines = [f"| moves | {engine}'s moves | median time (s) | median depth | the opponents' moves | "
             "median time (s) | median depth |", "|---|---|---|---|---|---|---|"]
    for band in sorted(bands):
        name = f"{band}-{band + 9}" if band < LAST_BAND else f"{band} on"
        own, other = bands[band]
        lines.append(f"| {name} | {cells(own)} | {cells(other)} |")
    return "\n".join(lines)


def pairs(texts, engine, mover_is_engine):
    """(mover's score, the reply's score negated) for each move by the engine (or by its opponent)."""
    out = []
    for text in texts:
        for white, black, first, scores in games(text):
            if engine not in (white, black):
                continue
            side = first
            for now, reply in zip(scores, scores[1:]):
                mover = white if side == "w" else black
                if (mover == engine) == mover_is_engine and now is not None and reply is not None:
                    out.append((now, -reply))
                side = "b" if side == "w" else "w"
    return out


def table(rows, who, other):
    lines = [f"| {who}'s score | moves | {other}'s reply (median, {who}'s side) |", "|---|---|---|"]
    for lo, hi in BANDS:
        band = [reply for score, reply in rows if lo <= score < hi]
        if band:
            lines.append(f"| {lo:+g} to {hi:+g} | {len(band)} | {statistics.median(band) + 0.0:+.2f} |")
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--engine", default="vblitz", help="the engine's name in the PGN")
    parser.add_argument("--by-move", action="store_true",
                        help="median time and depth of each side's moves per band of ten moves")
    args = parser.parse_args(argv)
    texts = []
    for path in args.pgn:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                texts.append(f.read())
        except OSError as e:
            print(f"pgn_scores.py: cannot read {path}: {e.strerror}", file=sys.stderr)
            return 1
    if args.by_move:
        bands = clock_use(texts, args.engine)
        if not bands:
            print(f"pgn_scores.py: no timed moves of '{args.engine}' in the games", file=sys.stderr)
            return 1
        print(clock_table(bands, args.engine))
        return 0
    own = pairs(texts, args.engine, True)
    if not own:
        print(f"pgn_scores.py: no scored moves of '{args.engine}' in the games", file=sys.stderr)
        return 1
    print(table(own, args.engine, "the opponent"))
    print()
    print(table(pairs(texts, args.engine, False), "the opponent", args.engine))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly
    sys.exit(main(sys.argv[1:]))
