#!/usr/bin/env python3
"""Summarise a reliability soak (perf/soak.sh): one markdown row per block with games, VBlitz's
score and every game that ended by a fault (time forfeit, illegal move, crash, disconnect or
stall), and which side committed it. Exits 1 if VBlitz committed any fault.

usage: perf/soak_summary.py OUT_DIR
"""
import pathlib
import re
import sys

# The PGN Termination values match runners write for games that did not end on the board.
FAULTS = {"time forfeit", "illegal move", "abandoned", "stalled connection", "unterminated"}
HEADER = re.compile(r'^\[(\w+) "(.*)"\]$')
PONDER_HANG = re.compile(r"(White|Black) did not answer stop(?: while pondering)?")


def games(pgn_path):
    """Yields each game's header tags as a dict."""
    tags = {}
    for line in pgn_path.read_text(errors="replace").splitlines():
        m = HEADER.match(line)
        if m:
            if m.group(1) == "Event" and tags:
                yield tags
                tags = {}
            tags[m.group(1)] = m.group(2)
    if tags:
        yield tags


def vblitz_side(tags):
    """'White' or 'Black': the side VBlitz played."""
    return "White" if tags.get("White", "").startswith("vblitz") else "Black"


def side_to_move_at_end(tags):
    """'White' or 'Black': the side to move after the game's plies, whose clock ran out or whose
    connection stalled in a game ended by a fault (None when the PGN has no PlyCount)."""
    if "PlyCount" not in tags:
        return None
    white_starts = tags.get("FEN", "- w").split()[1] == "w"
    white_to_move = (int(tags["PlyCount"]) % 2 == 0) == white_starts
    return "White" if white_to_move else "Black"


def ours(tags, us, lost):
    """Whether a fault game is VBlitz's: it lost, or the game did not finish, or it was drawn
    (the faulting side's opponent could not mate) with VBlitz to move (unknown counts as ours)."""
    if lost or tags.get("Result", "*") == "*":
        return True
    if tags.get("Result") == "1/2-1/2":
        return side_to_move_at_end(tags) in (us, None)
    return False


def summarise(pgn_path):
    """Returns (games, wins, draws, losses, our faults, their faults) for one block."""
    n = wins = draws = losses = 0
    ours_list, theirs = [], []
    for tags in games(pgn_path):
        n += 1
        us = vblitz_side(tags)
        result = tags.get("Result", "*")
        won = (result == "1-0") == (us == "White") and result in ("1-0", "0-1")
        lost = result in ("1-0", "0-1") and not won
        wins += won
        losses += lost
        draws += result == "1/2-1/2"
        termination = tags.get("Termination", "normal")
        if termination in FAULTS or result == "*":
            where = f"{pgn_path.name} round {tags.get('Round', '?')}: {termination}"
            (ours_list if ours(tags, us, lost) else theirs).append(where)
        # A side still pondering when the game ended that did not stop (vblitz-match): the
        # result stands, the fault is that side's.
        hung = PONDER_HANG.search(tags.get("TerminationDetails", ""))
        if hung:
            where = f"{pgn_path.name} round {tags.get('Round', '?')}: {hung.group(0)}"
            (ours_list if hung.group(1) == us else theirs).append(where)
    return n, wins, draws, losses, ours_list, theirs


def main():
    out = pathlib.Path(sys.argv[1])
    print("| block | games | VBlitz W-D-L | VBlitz faults | opponent faults |")
    print("|---|---:|---|---:|---:|")
    totals = [0, 0, 0, 0]
    all_ours, all_theirs = [], []
    for pgn in sorted(out.glob("*.pgn")):
        n, w, d, l, ours, theirs = summarise(pgn)
        totals = [a + b for a, b in zip(totals, (n, w, d, l))]
        all_ours += ours
        all_theirs += theirs
        print(f"| {pgn.stem} | {n} | {w}-{d}-{l} | {len(ours)} | {len(theirs)} |")
    n, w, d, l = totals
    print(f"| **total** | **{n}** | {w}-{d}-{l} | **{len(all_ours)}** | {len(all_theirs)} |")
    for label, faults in (("VBlitz", all_ours), ("opponent", all_theirs)):
        for fault in faults:
            print(f"- {label} fault: {fault}")
    return 1 if all_ours else 0


if __name__ == "__main__":
    sys.exit(main())
