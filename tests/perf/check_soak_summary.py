#!/usr/bin/env python3
"""perf/soak_summary.py on hand-made blocks: faults are charged to the side that lost by them (a
drawn one to the side to move at its end), a pondering side that did not stop after its game
ended is charged although the result stands, and the exit status is 1 exactly when VBlitz
committed a fault.

usage: check_soak_summary.py perf/soak_summary.py"""
import pathlib
import subprocess
import sys
import tempfile


def game(white, black, result, termination, plies, details=""):
    tags = {"Event": "vblitz-match", "Round": "1", "White": white, "Black": black, "Result": result,
            "PlyCount": str(plies), "Termination": termination}
    if details:
        tags["TerminationDetails"] = details
    return "".join(f'[{k} "{v}"]\n' for k, v in tags.items()) + f"\n{result}\n\n"


def run(script, blocks):
    with tempfile.TemporaryDirectory() as out:
        for name, text in blocks.items():
            pathlib.Path(out, name + ".pgn").write_text(text)
        done = subprocess.run([sys.executable, script, out], capture_output=True, text=True)
        return done.returncode, done.stdout


def main():
    script = sys.argv[1]
    failures = []

    def expect(what, ok, output):
        if not ok:
            failures.append(f"{what}:\n{output}")

    # Clean: a win, a loss on the board, the opponent's time forfeit and its ponder hang.
    clean = {"a": game("vblitz", "toga", "1-0", "normal", 41)
             + game("toga", "vblitz", "1-0", "adjudication", 60)
             + game("vblitz", "toga", "1-0", "time forfeit", 50)
             + game("toga", "vblitz", "0-1", "normal", 33, "White resigns, then White did not answer stop while"
                    " pondering (hung)")}
    status, output = run(script, clean)
    expect("clean block exits 0", status == 0, output)
    expect("clean block counts", "| a | 4 | 3-0-1 | 0 | 2 |" in output, output)

    # VBlitz's faults: a time forfeit it lost, a draw by a forfeit with VBlitz to move (40 plies
    # from the start position: White, VBlitz, to move), and its own ponder hang after a win.
    ours = {"b": game("vblitz", "sf", "0-1", "time forfeit", 21)
            + game("vblitz", "sf", "1/2-1/2", "time forfeit", 40)
            + game("sf", "vblitz", "0-1", "normal", 51, "White resigns, then Black did not answer stop while"
                   " pondering (hung)")}
    status, output = run(script, ours)
    expect("VBlitz's faults exit 1", status == 1, output)
    expect("VBlitz's faults counted", "| b | 3 | 1-1-1 | 3 | 0 |" in output, output)
    expect("the hang named", "did not answer stop while pondering" in output, output)

    for f in failures:
        print("FAIL", f)
    print(f"soak_summary: {len(failures)} checks failed" if failures else "soak_summary: every check passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
