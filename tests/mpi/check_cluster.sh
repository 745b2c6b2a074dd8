#!/usr/bin/env bash
# Cluster mode under mpirun (ctest label `mpi`, VBLITZ_MPI builds): perft shared over 2 and 3
# processes is exact (against the plain single-process count); bench at -np 1 gives the plain
# build's pinned signatures, and at -np 2 and 3 every process searches and the exchange delivers; the UCI loop
# keeps every rank's game in step through bad input (a shared `go perft` only adds up if every
# rank has the same position), one legal bestmove per `go` searched by every rank, and
# `stop`/`quit` end every rank.
#
# usage: tests/mpi/check_cluster.sh VBLITZ MPIEXEC [MPIEXEC FLAGS...]
set -euo pipefail
vblitz=$(realpath "$1")
shift
launch=("$@")
here=$(dirname "$(realpath "$0")")
fail() { echo "FAIL: $*"; exit 1; }
total() { sed -n 's/^Nodes searched: //p'; }
kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# Command-line perft: exact at -np 2 and 3, the breakdown equal to one process's.
plain=$("$vblitz" perft 4 $kiwipete | grep -v '^info\|^Time\|^Nodes/')
for np in 2 3; do
  shared=$(timeout 120 "${launch[@]}" -np $np "$vblitz" perft 4 $kiwipete | grep -v '^info\|^Time\|^Nodes/')
  [[ $shared == "$plain" ]] || fail "perft 4 Kiwipete at -np $np: $(total <<< "$shared") vs $(total <<< "$plain")"
done
echo "ok perft -np 2, -np 3: $(total <<< "$plain")"

# -np 1: the bench signature equals the plain (non-MPI) build's, pinned in
# tests/bench_signature.txt for both evaluations.
for mode in network classic; do
  pinned=$(sed -n "s/^$mode //p" "$here/../bench_signature.txt")
  [[ -n $pinned ]] || fail "no $mode signature in tests/bench_signature.txt"
  one=$(timeout 300 "${launch[@]}" -np 1 "$vblitz" --eval-mode $mode bench | total)
  [[ $one == "$pinned" ]] || fail "bench at -np 1, $mode evaluation: $one, the plain build's $pinned"
  echo "ok bench -np 1, $mode evaluation: $one, the plain build's signature"
done
# bench at -np 2 and 3: every process searches, the ring delivers what it sends (process r
# receives what r-1 sent), and the cluster's total is the sum of the processes' nodes.
for np in 2 3; do
  out=$(timeout 300 "${launch[@]}" -np $np "$vblitz" bench 6)
  python3 "$here/check_bench_shares.py" $np <<< "$out" || fail "bench 6 at -np $np:
$out"
  echo "ok bench 6 -np $np: $(total <<< "$out") nodes, every process searched, the ring delivered"
done
# The all-gather exchange at -np 3, from the UCI loop (the input ends after `bench`, which it
# lets finish): each process receives what every other process sent.
out=$(printf 'setoption name ClusterExchange value allgather\nbench 6\n' |
  timeout 300 "${launch[@]}" -np 3 "$vblitz")
python3 "$here/check_bench_shares.py" 3 allgather <<< "$out" || fail "bench 6 all-gather at -np 3:
$out"
echo "ok bench 6 -np 3 all-gather: every process received every other's entries"
# datagen at -np 2: one generator per process with its own seed and shards, the total reported,
# and a second run resumes (nothing left to play).
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
args=(datagen "$data" --format packed --games 2 --shard-games 2 --nodes 300 --threads 1 --seed 5)
out=$(timeout 300 "${launch[@]}" -np 2 "$vblitz" "${args[@]}" 2>&1)
[[ -s $data/seed5-000000.vbd && -s $data/seed1000005-000000.vbd ]] || fail "datagen -np 2 shards: $(ls "$data") $out"
bytes=$(cat "$data"/*.vbd | wc -c)
grep -q "cluster: 2 processes .* $((bytes / 32)) new positions in all" <<< "$out" || fail "datagen total ($bytes bytes): $out"
out=$(timeout 300 "${launch[@]}" -np 2 "$vblitz" "${args[@]}" 2>&1)
grep -q "cluster: 2 processes .* 0 new positions in all" <<< "$out" || fail "datagen did not resume: $out"
echo "ok datagen -np 2: two seeds' shards, $((bytes / 32)) positions, resumed"

# Commands without a cluster form refuse instead of running K copies.
if refused=$(timeout 60 "${launch[@]}" -np 2 "$vblitz" speedtest 1 1 1 2>&1); then fail "speedtest at -np 2 ran: $refused"; fi
grep -q "'speedtest' runs on one process" <<< "$refused" || fail "speedtest at -np 2: $refused"
echo "ok speedtest at -np 2 refused"

# UCI: bad input keeps every rank's position and options; go perft shared; one bestmove.
session="uci
setoption name Hash value 999999999
setoption name Threads value 2
position startpos moves e2e4
position startpos moves e2e5
position fen not-a-fen
frobnicate
go depth 6
isready
go perft 4"
# (The input ends after `go perft`: a following command would stop it, as in one process.)
out=$(timeout 120 "${launch[@]}" -np 2 "$vblitz" <<< "$session")
expected=$(printf 'position startpos moves e2e4\ngo perft 4\n' | "$vblitz" | total)
[[ $(total <<< "$out") == "$expected" ]] || fail "go perft 4 after bad input at -np 2: $(total <<< "$out"), one process: $expected"
(( $(grep -c 'info string error' <<< "$out") >= 4 )) || fail "missing errors:\n$out"
[[ $(grep -c '^bestmove' <<< "$out") == 1 ]] || fail "not exactly one bestmove:\n$out"
move=$(sed -n 's/^bestmove \([a-h][1-8][a-h][1-8][qrbn]\?\).*/\1/p' <<< "$out")
[[ -n $move ]] || fail "no move in the bestmove (a legal move exists):\n$out"
printf 'position startpos moves e2e4 %s\n' "$move" | "$vblitz" | grep -q 'error' && fail "illegal bestmove $move"
echo "ok UCI -np 2: errors reported, go perft 4 = $expected, one bestmove $move"

# File options agree on every rank: each rank runs in its own directory, so one relative path
# names a file per rank. The same file is accepted; a file that differs on one rank, or is
# missing there, is refused on every rank with one error, and the game goes on in step.
dirs=$(mktemp -d)
mkdir "$dirs/r0" "$dirs/r1"
"$vblitz" params > "$dirs/r0/same.params"
cp "$dirs/r0/same.params" "$dirs/r1/same.params"
"$vblitz" params > "$dirs/r0/differs.params"
sed 's/^material\[1\] 310 300$/material[1] 311 300/' "$dirs/r0/differs.params" > "$dirs/r1/differs.params"
cmp -s "$dirs/r0/differs.params" "$dirs/r1/differs.params" && fail "the test's two parameter files are equal"
cp "$dirs/r0/same.params" "$dirs/r0/only-here.params"
session="setoption name ParamFile value same.params
setoption name ParamFile value differs.params
setoption name ParamFile value only-here.params
position startpos moves e2e4
go perft 3"
out=$(timeout 120 "${launch[@]}" -np 2 sh -c "cd $dirs/r\$OMPI_COMM_WORLD_RANK && exec $vblitz" <<< "$session")
rm -rf "$dirs"
grep -q '^info string parameters from same.params' <<< "$out" || fail "same file not accepted:\n$out"
grep -q "^info string error: ParamFile: 'differs.params' differs between the processes" <<< "$out" ||
  fail "differing file not refused:\n$out"
grep -q "^info string error: ParamFile: 'only-here.params' differs between the processes" <<< "$out" ||
  fail "file missing on one rank not refused:\n$out"
[[ $(total <<< "$out") == 13160 ]] || fail "go perft 3 after the file options: $(total <<< "$out"):\n$out"
echo "ok file options at -np 2: the same file accepted, a differing or missing one refused everywhere"

# go infinite then stop, and quit during a deep perft: every rank ends within seconds.
start=$SECONDS
out=$( (printf 'position startpos\ngo infinite\n'; sleep 2; printf 'stop\n'; sleep 1; printf 'go perft 9\n';
        sleep 2; printf 'quit\n') | timeout 30 "${launch[@]}" -np 2 "$vblitz") || fail "ranks did not end: $out"
[[ $(grep -c '^bestmove [a-h][1-8]' <<< "$out") == 1 ]] || fail "go infinite/stop:\n$out"
(( SECONDS - start < 15 )) || fail "took $((SECONDS - start)) s to end"
echo "ok stop and quit end every rank in $((SECONDS - start)) s"

# A game's clock flow on both ranks: go ponder then ponderhit, a clock search, and quit while
# every rank searches; one legal bestmove per go, every rank ends.
start=$SECONDS
out=$( (printf 'position startpos\ngo ponder wtime 2000 btime 2000\n'; sleep 1; printf 'ponderhit\n'; sleep 2
        printf 'position startpos moves e2e4\ngo wtime 1000 btime 1000\n'; sleep 2
        printf 'position startpos\ngo infinite\n'; sleep 1; printf 'quit\n') |
      timeout 30 "${launch[@]}" -np 2 "$vblitz") || fail "ranks did not end: $out"
[[ $(grep -c '^bestmove [a-h][1-8]' <<< "$out") == 3 ]] || fail "ponder, clock and quit: not three legal bestmoves:\n$out"
grep -q '^info depth .* nodes [1-9]' <<< "$out" || fail "no info line with nodes:\n$out"
echo "ok ponderhit, a clock search and quit during go infinite at -np 2 in $((SECONDS - start)) s"

# A rank that stops answering mid-search (SIGSTOP) or dies (SIGKILL): after `stop`, rank 0 still
# answers with a legal bestmove within the deadline and says why, and the run ends; never a hang.
# A killed rank 1 ends the run through mpirun, and rank 0 says why on its way out.
# The ranks are found by the rank Open MPI puts in their environment.
trap '' PIPE  # a write to a run that has ended fails instead of ending this script
rank_pid() {
  for p in $(pgrep -x "$(basename "$vblitz")"); do
    if tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1"; then echo "$p"; fi
  done
}
for signal in STOP KILL; do
  for victim in 1 0; do
    [[ $signal == STOP && $victim == 0 ]] && continue  # a stopped rank 0 cannot answer at all
    work=$(mktemp -d)
    mkfifo "$work/in"
    timeout 60 "${launch[@]}" -np 2 "$vblitz" < "$work/in" > "$work/out" 2> "$work/err" &
    job=$!
    exec 3> "$work/in"
    printf 'position startpos\ngo infinite\n' >&3
    sleep 2
    pid=$(rank_pid $victim)
    [[ -n $pid ]] || fail "no process of rank $victim"
    kill -$signal "$pid"
    sleep 1
    start=$SECONDS
    printf 'stop\n' >&3 2>/dev/null || true
    status=0
    wait $job || status=$?
    exec 3>&-
    elapsed=$((SECONDS - start))
    kill -CONT "$pid" 2>/dev/null || true
    out=$(cat "$work/out"; echo "(stderr:)"; cat "$work/err")
    rm -rf "$work"
    (( status != 124 )) || fail "rank $victim SIG$signal: the run hung:\n$out"
    (( elapsed <= 8 )) || fail "rank $victim SIG$signal: the run ended after $elapsed s:\n$out"
    if [[ $victim == 1 && $signal == STOP ]]; then
      move=$(sed -n 's/^bestmove \([a-h][1-8][a-h][1-8][qrbn]\?\).*/\1/p' <<< "$out")
      [[ -n $move ]] || fail "rank 1 stopped: no bestmove from rank 0:\n$out"
      grep -q '^info string error: cluster: a process stopped answering' <<< "$out" || fail "no reason given:\n$out"
    elif [[ $victim == 1 ]]; then  # mpirun ends rank 0 with SIGTERM: it says so on the UCI output
      grep -q '^info string error: cluster: the run was ended by SIGTERM' <<< "$out" || fail "rank 1 killed: no word from rank 0:\n$out"
    fi
    echo "ok rank $victim SIG$signal mid-search: the run ended in $elapsed s (status $status)${move:+, bestmove $move}"
    move=
  done
done

# A rank stopped (SIGSTOP) while the run is idle, then each collective of the protocol: a file
# option's check, a shared perft stopped, a search on the clock, quit. Rank 0 waits at most the
# stated deadline (cluster::kAnswerDeadline, 5 s), names the rank that does not answer its ping,
# and the run ends with a non-zero exit; a search on the clock answers first. The bound is the
# deadline, the ping's second and a margin for a loaded machine (what `isready` took, twice).
cluster_deadline=5
for case in file perft clock quit; do
  work=$(mktemp -d)
  mkfifo "$work/in"
  "$vblitz" params > "$work/same.params"
  timeout 60 "${launch[@]}" -np 2 "$vblitz" < "$work/in" > "$work/out" 2> "$work/err" &
  job=$!
  exec 3> "$work/in"
  begun=$SECONDS began=$(date +%s.%N)
  printf 'isready\n' >&3
  until grep -q '^readyok' "$work/out" 2>/dev/null; do
    (( SECONDS - begun < 30 )) || fail "$case: no readyok within 30 s"
    sleep 0.02
  done
  began=$(date +%s.%N)  # the launch is over: time a round trip through both ranks
  printf 'isready\n' >&3
  until (( $(grep -c '^readyok' "$work/out" 2>/dev/null) >= 2 )); do
    (( SECONDS - begun < 30 )) || fail "$case: no second readyok within 30 s"
    sleep 0.01
  done
  isready=$(python3 -c "print(round($(date +%s.%N) - $began, 2))")
  margin=$(python3 -c "import math; print(math.ceil(2 * $isready) + 2)")
  pid=$(rank_pid 1)
  [[ -n $pid ]] || fail "$case: no process of rank 1"
  kill -STOP "$pid"
  start=$(date +%s.%N)
  case $case in
    file) printf 'setoption name ParamFile value %s\nisready\n' "$work/same.params" >&3 ;;
    perft) printf 'go perft 7\n' >&3; sleep 0.5; printf 'stop\n' >&3 ;;
    clock) printf 'position startpos moves e2e4\ngo wtime 1000 btime 1000\n' >&3 ;;
    quit) printf 'quit\n' >&3 ;;
  esac
  answered=""
  if [[ $case == clock ]]; then  # the move comes within the clock (1 s) and half a second
    until grep -q '^bestmove' "$work/out" 2>/dev/null || ! kill -0 $job 2>/dev/null; do sleep 0.02; done
    answered=$(python3 -c "print(round($(date +%s.%N) - $start, 2))")
  fi
  status=0
  wait $job || status=$?
  exec 3>&-
  ended=$(date +%s.%N)
  kill -CONT "$pid" 2>/dev/null || true
  out=$(cat "$work/out"; echo "(stderr:)"; cat "$work/err")
  elapsed=$(python3 -c "print(round($ended - $start, 2))")
  bound=$((cluster_deadline + 1 + margin))
  [[ $case == perft ]] && bound=$((bound + 2))  # perft's sums wait twice its own half second more
  (( status != 124 )) || fail "$case with rank 1 stopped: the run hung:\n$out"
  (( status != 0 )) || fail "$case with rank 1 stopped: exit 0:\n$out"
  python3 -c "import sys; sys.exit(not $elapsed <= $bound)" || fail "$case with rank 1 stopped: ended after $elapsed s (bound $bound s):\n$out"
  if [[ $case == clock ]]; then
    grep -q '^bestmove [a-h][1-8]' "$work/out" || fail "clock with rank 1 stopped: no bestmove:\n$out"
    python3 -c "import sys; sys.exit(not $answered <= 1.5 + 2 * $isready)" ||
      fail "clock with rank 1 stopped: bestmove after $answered s:\n$out"
    grep -q '^info string error: cluster: ' "$work/out" || fail "clock with rank 1 stopped: no reason given:\n$out"
  else
    grep -q '^info string error: cluster: rank 1 did not answer' "$work/out" ||
      fail "$case with rank 1 stopped: rank 1 not named:\n$out"
  fi
  rm -rf "$work"
  echo "ok $case with rank 1 stopped: the run ended in $elapsed s (bound $bound s, status $status)${answered:+, bestmove after $answered s}"
done
