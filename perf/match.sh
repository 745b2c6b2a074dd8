#!/usr/bin/env bash
# The strength matches of docs/strength.md in one place: a match runner (vblitz-match, or
# fastchess, which takes the same command line) with the project's standard
# conditions (one thread each, both colours of every opening, the clock games adjudicated as in
# the docs), the full command printed before it runs.
#
# usage: perf/match.sh [options] nets NEW.nnue OLD.nnue     two networks on one binary (EvalFile)
#        perf/match.sh [options] builds NEW_VBLITZ OLD_VBLITZ  two builds, each with its own default
#        perf/match.sh [options] peer stockfish|stockfish-classical|ethereal
#        perf/match.sh [options] elo E                      UCI_Elo E against Stockfish 15.1's E
#
# options:
#   --vblitz PATH       the engine for nets, peer and elo (default build/release/vblitz)
#   --nodes N           a fixed node count a move (default for nets and builds: 10000)
#   --tc TC             a clock instead, e.g. 10+0.1 (default for peer and elo)
#   --rounds N          pairs of games, one with each colour (default 400 at fixed nodes,
#                       100 on a clock, 50 for elo)
#   --srand N           the opening order (default 1)
#   --openings FILE     EPD openings (default perf/data/openings.epd; the docs' figures use
#                       UHO_4060_v4.epd for nets and builds and 2moves_v1.epd against peers)
#   --hash MB           Hash of each engine (default 16 at fixed nodes, 64 on a clock or with
#                       UCI_Elo)
#   --concurrency N     games at a time (default 2)
#   --elo E             nets and builds: both VBlitz sides play UCI_LimitStrength at UCI_Elo E
#                       (the carry-over of a level's budget to a new network, docs/strength.md);
#                       games with UCI_Elo are adjudicated as clock games are
#   --pgn FILE          write the games there
#   --ledger FILE       where the finished match's record goes (default perf/ledger.jsonl;
#                       docs/strength.md's tables are rendered from it: perf/ledger.py)
#   --no-ledger         record nothing
#   --data TEXT         nets: what NEW learned from (the ledger record's data; also --shape TEXT)
#   --change TEXT       builds: what NEW changes (the record's change)
#   --decision TEXT     what the match decided (nets and builds: "pending" until given; edit the
#                       record when it is decided)
#   --dry-run           print the command, run nothing
#   -- ARGS...          passed on to fastchess (e.g. -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05)
# env: FASTCHESS, the match runner: the project's vblitz-match by default
#      (build/release/vblitz-match), or fastchess built locally (docs/matches.md).
set -euo pipefail
# The whole script is one block, read before it runs: an edit while a match is under way (hours
# at 10+0.1) cannot change what the rest of it does.
{

here=$(dirname "$(realpath "$0")")
root=$(dirname "$here")
die() { echo "match.sh: $*" >&2; exit 2; }

vblitz=$root/build/release/vblitz
nodes="" tc="" rounds="" srand=1 openings=$here/data/openings.epd hash="" concurrency=2 elo=""
pgn="" dry_run=0 ledger=$here/ledger.jsonl data="" shape="" change="" decision=""
positional=() extra=()
while (($#)); do
  case $1 in
    --vblitz) vblitz=${2:?--vblitz needs a path}; shift ;;
    --nodes) nodes=${2:?--nodes needs a count}; shift ;;
    --tc) tc=${2:?--tc needs a time control}; shift ;;
    --rounds) rounds=${2:?--rounds needs a count}; shift ;;
    --srand) srand=${2:?--srand needs a number}; shift ;;
    --openings) openings=${2:?--openings needs a file}; shift ;;
    --hash) hash=${2:?--hash needs megabytes}; shift ;;
    --concurrency) concurrency=${2:?--concurrency needs a count}; shift ;;
    --elo) elo=${2:?--elo needs a rating}; shift ;;
    --pgn) pgn=${2:?--pgn needs a file}; shift ;;
    --dry-run) dry_run=1 ;;
    --ledger) ledger=${2:?--ledger needs a file}; shift ;;
    --no-ledger) ledger="" ;;
    --data) data=${2:?--data needs a text}; shift ;;
    --shape) shape=${2:?--shape needs a text}; shift ;;
    --change) change=${2:?--change needs a text}; shift ;;
    --decision) decision=${2:?--decision needs a text}; shift ;;
    --) shift; extra=("$@"); break ;;
    -*) die "unknown option $1 (see the usage at the top of perf/match.sh)" ;;
    *) positional+=("$1") ;;
  esac
  shift
done
((${#positional[@]})) || die "name a match: nets, builds, peer or elo"
mode=${positional[0]}
args=("${positional[@]:1}")

number() { [[ $2 =~ ^[0-9]+$ ]] || die "$1 must be a whole number, not '$2'"; }
[[ -n $nodes && -n $tc ]] && die "give --nodes or --tc, not both"
[[ -n $nodes ]] && number --nodes "$nodes"
[[ -n $rounds ]] && number --rounds "$rounds"
[[ -n $elo ]] && number --elo "$elo"
[[ -n $hash ]] && number --hash "$hash"
number --srand "$srand"
number --concurrency "$concurrency"

new=() old=()
case $mode in
  nets)
    ((${#args[@]} == 2)) || die "nets takes NEW.nnue OLD.nnue"
    for f in "${args[@]}"; do [[ -f $f ]] || die "no network file $f"; done
    new=(cmd="$vblitz" name=new option.EvalFile="$(realpath "${args[0]}")")
    old=(cmd="$vblitz" name=old option.EvalFile="$(realpath "${args[1]}")")
    [[ -n $tc ]] || : "${nodes:=10000}" ;;
  builds)
    ((${#args[@]} == 2)) || die "builds takes NEW_VBLITZ OLD_VBLITZ"
    for f in "${args[@]}"; do [[ -x $f ]] || die "no executable $f"; done
    new=(cmd="$(realpath "${args[0]}")" name=new)
    old=(cmd="$(realpath "${args[1]}")" name=old)
    [[ -n $tc ]] || : "${nodes:=10000}" ;;
  peer)
    ((${#args[@]} == 1)) || die "peer takes one of stockfish, stockfish-classical, ethereal"
    new=(cmd="$vblitz" name=vblitz)
    case ${args[0]} in
      stockfish) old=(cmd=/usr/games/stockfish name=sf151) ;;
      stockfish-classical) old=(cmd=/usr/games/stockfish name=sf151-classical "option.Use NNUE=false") ;;
      ethereal) old=(cmd=/usr/games/ethereal-chess name=ethereal12) ;;
      *) die "unknown peer '${args[0]}' (stockfish, stockfish-classical, ethereal)" ;;
    esac
    [[ -n $nodes ]] || : "${tc:=10+0.1}" ;;
  elo)
    ((${#args[@]} == 1)) || die "elo takes the rating, e.g. elo 2000"
    number elo "${args[0]}"
    new=(cmd="$vblitz" name=vblitz option.UCI_LimitStrength=true option.UCI_Elo="${args[0]}")
    old=(cmd=/usr/games/stockfish name=sf151 option.UCI_LimitStrength=true option.UCI_Elo="${args[0]}")
    [[ -n $nodes ]] || : "${tc:=10+0.1}"
    : "${rounds:=50}" ;;
  *) die "unknown match '$mode' (nets, builds, peer, elo)" ;;
esac
if [[ -n $elo ]]; then
  [[ $mode == nets || $mode == builds ]] || die "--elo is for nets and builds (elo E plays Stockfish)"
  new+=(option.UCI_LimitStrength=true option.UCI_Elo="$elo")
  old+=(option.UCI_LimitStrength=true option.UCI_Elo="$elo")
fi
[[ -f $openings ]] || die "no opening file $openings"

# Games on a clock or with UCI_Elo are played as the docs' clock games: Hash 64, adjudicated.
each=(proto=uci option.Threads=1)
adjudicate=()
if [[ -n $tc || -n $elo || $mode == elo ]]; then
  : "${hash:=64}"
  adjudicate=(-draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=800 twosided=true)
fi
if [[ -n $nodes ]]; then
  each+=(tc=inf nodes="$nodes" option.Hash="${hash:-16}")
  : "${rounds:=400}"
else
  each+=(tc="$tc" option.Hash="$hash")
  : "${rounds:=100}"
fi
runner=${FASTCHESS:-$root/build/release/vblitz-match}
cmd=("$runner" -engine "${new[@]}" -engine "${old[@]}" -each "${each[@]}"
  -openings file="$(realpath "$openings")" format=epd order=random
  -rounds "$rounds" -games 2 -repeat -concurrency "$concurrency" -recover -srand "$srand"
  "${adjudicate[@]}")
[[ -n $pgn ]] && cmd+=(-pgnout file="$pgn")
cmd+=("${extra[@]}")

printf '%q ' "${cmd[@]}"
printf '\n'
((dry_run)) && exit 0
[[ -x $runner ]] || die "no match runner $runner (build vblitz-match, or set FASTCHESS)"
[[ -x $vblitz || $mode == builds ]] || die "no executable $vblitz (build it, or give --vblitz)"

# The match, its output kept for the ledger.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# A Ctrl-C reaches the runner, which ends the match after the games under way and prints its
# standing; tee ignores it so that standing reaches the log, and the record is made from it.
"${cmd[@]}" | (trap '' INT TERM; exec tee "$log") || status=$?
[[ -n $ledger && $status == 0 ]] || exit "$status"

# The network a binary plays with (EvalFile when given): `eval` names it.
network_of() {
  local binary=$1 file=${2:-}
  { [[ -n $file ]] && printf 'setoption name EvalFile value %s\n' "$file"; printf 'eval\nquit\n'; } |
    timeout 60 "$binary" 2>/dev/null | grep -o 'vblitz-[0-9a-f]*' | head -n 1 || true
}
signature_of() { timeout 600 "$1" bench 2>/dev/null | sed -n 's/^Nodes searched: //p' | head -n 1 || true; }
[[ -n $tc ]] && conditions="$tc, one thread and Hash ${hash} each" || conditions="$nodes nodes, Hash ${hash:-16}"
[[ -n $elo ]] && conditions+=", UCI_Elo $elo"
case $mode in
  nets) kind=network engine=$(network_of "$vblitz" "$(realpath "${args[0]}")")
    opponent=$(network_of "$vblitz" "$(realpath "${args[1]}")") signature=$(signature_of "$vblitz") note="" ;;
  builds) kind=search engine=$(network_of "${args[0]}") signature=$(signature_of "${args[0]}")
    old_signature=$(signature_of "${args[1]}") note=""  # the builds' paths are this machine's only
    opponent="the build before the change${old_signature:+ (bench $old_signature)}" ;;
  peer) kind=peer engine=$(network_of "$vblitz") signature=$(signature_of "$vblitz") note=""
    case ${args[0]} in
      stockfish) opponent="Stockfish 15.1 (NNUE)" ;;
      stockfish-classical) opponent='Stockfish 15.1, `Use NNUE` false' ;;
      ethereal) opponent="Ethereal 12" ;;
    esac ;;
  elo) kind=uci_elo engine=$(network_of "$vblitz") signature=$(signature_of "$vblitz") note=""
    opponent="Stockfish 15.1 at UCI_Elo ${args[0]}" conditions+=", UCI_Elo ${args[0]} each" ;;
esac
record=(--kind "$kind" --engine "${engine:-unknown}" --opponent "$opponent" --conditions "$conditions"
  --openings "$(basename "$openings" .epd)" --srand "$srand")
[[ -n $signature ]] && record+=(--signature "$signature")
[[ -n $note ]] && record+=(--engine-note "$note")
[[ $mode == elo ]] && record+=(--uci-elo "${args[0]}")
if [[ $mode == nets && -n $elo ]]; then  # a budget carried over: a UCI_Elo record
  record=(--kind uci_elo --engine "${engine:-unknown}" --opponent "$opponent at UCI_Elo $elo${nodes:+, $nodes nodes}"
    --conditions "$conditions" --openings "$(basename "$openings" .epd)" --srand "$srand" --uci-elo "$elo")
  [[ -n $nodes ]] && record+=(--node-budget "$nodes")
fi
[[ -n $data ]] && record+=(--data "$data")
[[ -n $shape ]] && record+=(--shape "$shape")
[[ -n $change ]] && record+=(--change "$change")
[[ -n $decision ]] && record+=(--decision "$decision")
python3 "$here/ledger.py" --ledger "$ledger" add --output "$log" "${record[@]}" ||
  echo "match.sh: the match was not recorded in $ledger" >&2
exit "$status"
}
