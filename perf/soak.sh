#!/usr/bin/env bash
# Reliability soak (docs/reliability.md): 1,000 games against the Debian engines at
# bullet, blitz and 10+0.1, Threads 1 and 2, Hash 1 to 256 MB, some with Ponder, and games
# through polyglot (xboard) against Fairy-Max. Every block writes its own PGN and log under OUT;
# a block whose PGN already holds its games is skipped, so the script resumes where it stopped.
# Afterwards `python3 perf/soak_summary.py OUT` counts games and faults.
#
# usage: perf/soak.sh VBLITZ OUT [BLOCK...]   (only the named blocks when any are given)
# env:   FASTCHESS, the runner of the UCI blocks (default: the project's
#        build/release/vblitz-match); VBLITZ_MATCH, the runner of the ponder and xboard blocks,
#        which fastchess does not play (default: build/release/vblitz-match); OPENINGS (EPD,
#        default perf/data/openings.epd); SEED (default 1)
set -euo pipefail
# One block, read whole before it runs: an edit during the hour of games changes nothing here.
{

vblitz=$(realpath "$1")
out=$2
here=$(dirname "$(realpath "$0")")
fastchess=${FASTCHESS:-$(dirname "$here")/build/release/vblitz-match}
match=${VBLITZ_MATCH:-$(dirname "$here")/build/release/vblitz-match}
for runner in "$fastchess" "$match"; do
  [[ -x $runner ]] || { echo "soak.sh: no match runner $runner (build vblitz-match, or set FASTCHESS and VBLITZ_MATCH)" >&2; exit 2; }
done
openings=${OPENINGS:-$here/data/openings.epd}
seed=${SEED:-1}
selected=("${@:3}")
mkdir -p "$out"

# wanted NAME: true when no blocks were named on the command line or NAME is one of them.
wanted() { (( ${#selected[@]} == 0 )) || [[ " ${selected[*]} " == *" $1 "* ]]; }

# UCI opponents, one argument per line: their command and the options that make them play one
# thread without their own books.
opponent_args() {
  case $1 in
    stockfish) printf '%s\n' cmd=/usr/games/stockfish option.Threads=1 option.Hash=16 ;;
    ethereal) printf '%s\n' cmd=/usr/games/ethereal-chess option.Threads=1 option.Hash=16 ;;
    toga2) printf '%s\n' cmd=/usr/games/toga2 'option.Number of Threads=1' option.OwnBook=false \
      option.Hash=16 ;;
    glaurung) printf '%s\n' cmd=/usr/games/glaurung option.Threads=1 option.OwnBook=false \
      option.Hash=16 ;;
    *) echo "unknown opponent $1" >&2; exit 2 ;;
  esac
}

# Games in a PGN: 0 for a missing file or one with no games yet (grep -c prints 0 and fails).
games_in() { local n=0; [[ -f $1 ]] && n=$(grep -c '^\[Result ' "$1" || true); echo "${n:-0}"; }

# block NAME GAMES CONCURRENCY TC OPPONENT THREADS HASH EVALMODE [ponder]
block() {
  local name=$1 games=$2 conc=$3 tc=$4 opp=$5 threads=$6 hash=$7 mode=$8 ponder=${9:-}
  local pgn=$out/$name.pgn
  wanted "$name" || return 0
  if (( $(games_in "$pgn") >= games )); then echo "skip $name (done)"; return; fi
  rm -f "$pgn" "$out/$name.log"
  echo "$(date -u +%FT%TZ) $name: $games games, $tc, $opp, Threads $threads, Hash $hash, $mode $ponder"
  local -a them
  local -a us=(cmd="$vblitz" name=vblitz option.Threads="$threads" option.Hash="$hash"
    option.EvalMode="$mode")
  mapfile -t them < <(opponent_args "$opp")
  them+=(name="$opp")
  local -a each=(tc="$tc" proto=uci) runner=("$fastchess")
  # Pondering on both sides: the project's runner (fastchess does not ponder).
  [[ $ponder == ponder ]] && each+=(ponder) runner=("$match")
  "${runner[@]}" -engine "${us[@]}" -engine "${them[@]}" -each "${each[@]}" -rounds $((games / 2)) -games 2 \
    -repeat -concurrency "$conc" -recover -srand "$seed" \
    -openings file="$openings" format=epd order=random -pgnout file="$pgn" \
    -log file="$out/$name.log" level=warn engine=false > "$out/$name.out" 2>&1 || true
}

# xboard: VBlitz behind Debian's polyglot against Fairy-Max, both xboard engines, played by the
# project's runner.
xboard_block() {
  local name=$1 games=$2 tc=$3 pgn=$out/$1.pgn
  wanted "$name" || return 0
  if (( $(games_in "$pgn") >= games )); then echo "skip $name (done)"; return; fi
  rm -f "$pgn" "$out/$name.log"
  echo "$(date -u +%FT%TZ) $name: $games games, $tc, polyglot vs fairymax"
  "$match" -engine name=vblitz-polyglot cmd=/usr/games/polyglot arg=-noini arg=-ec \
    arg="$vblitz" proto=xboard -engine name=fairymax cmd=/usr/games/fairymax proto=xboard \
    -each tc="$tc" -rounds $((games / 2)) -games 2 -repeat -concurrency 2 -recover \
    -srand "$seed" -openings file="$openings" format=epd order=random -pgnout file="$pgn" \
    -log file="$out/$name.log" level=warn engine=false > "$out/$name.out" 2>&1 || true
}

# 1,000 games, about an hour on two cores. Bullet 1+0.01, one thread, two games at a time.
block bullet-toga-h1 150 2 1+0.01 toga2 1 1 classic
block bullet-ethereal-h64-net 150 2 1+0.01 ethereal 1 64 network
block bullet-stockfish-h256 150 2 1+0.01 stockfish 1 256 classic
block bullet-glaurung-h1-net 150 2 1+0.01 glaurung 1 1 network
# Blitz 3+0.03: one thread two at a time, then two threads one at a time.
block blitz-toga-h32 50 2 3+0.03 toga2 1 32 classic
block blitz-ethereal-h128-net 100 2 3+0.03 ethereal 1 128 network
block blitz-t2-toga-h256-net 50 1 3+0.03 toga2 2 256 network
# 10+0.1, one thread, two at a time.
block rapid-ethereal-h64-net 50 2 10+0.1 ethereal 1 64 network
# Ponder on for both sides (vblitz-match; fastchess has no pondering), one game at a time, against
# Stockfish (Ethereal 12 answers a ponderhit only when `stop` follows, so it loses on time).
block ponder-stockfish-h64-net 50 1 3+0.03 stockfish 1 64 network ponder
# xboard through polyglot.
xboard_block xboard-polyglot-fairymax 100 2+0.02
echo "$(date -u +%FT%TZ) soak finished"
}
