#!/usr/bin/env bash
# Cluster mode across hosts (ctest `cluster_hosts`, label `mpi`): four network namespaces, each a
# host with its own address on a bridge, and Open MPI over TCP between them, its ranks started in
# their namespaces through `ip netns exec` (the launch agent below). Checks distributed perft
# against the published counts, one legal bestmove, stop and quit, file options that must agree
# on every host, every rank killed or stopped in turn during a search, and a rank stopped before
# each collective (file option, perft, clock, quit): rank 0 answers or names the rank within its
# deadline and the run ends, never a hang. The namespaces have no route out: the traffic stays
# between them. Needs root and `ip netns`; says so and exits 77 (skipped) where the machine does
# not allow them.
#
# usage: tests/mpi/check_hosts.sh VBLITZ MPIEXEC [HOSTS (2-8, default 4)]
set -euo pipefail
# Descriptors inherited from the caller (ctest keeps its log open as fd 3) would be inherited by
# Open MPI's daemons; close all but the standard three.
for fd in /proc/$$/fd/*; do
  n=${fd##*/}
  if (( n > 2 && n != 255 )); then eval "exec $n>&-" 2> /dev/null || true; fi
done
vblitz=$(realpath "$1")
mpiexec=$2
hosts=${3:-4}
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
total() { sed -n 's/^Nodes searched: //p'; }

[[ $(id -u) == 0 ]] || skip "network namespaces need root"
command -v ip > /dev/null || skip "no ip command (iproute2)"
prefix="vbh$$"
hub="${prefix}hub"
ip netns add "$hub" 2> /dev/null || skip "this machine does not allow network namespaces (ip netns add failed)"
work=$(mktemp -d)
cleanup() {
  for ns in $(ip netns list | awk '{print $1}' | grep "^$prefix" || true); do
    for p in $(ip netns pids "$ns" 2> /dev/null); do kill -9 "$p" 2> /dev/null || true; done
  done
  for ns in $(ip netns list | awk '{print $1}' | grep "^$prefix" || true); do ip netns del "$ns" 2> /dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap '' PIPE  # a write to a run that has ended fails instead of ending this script

# The hosts: namespace ${prefix}I with address 10.213.0.(I+1) on a bridge in the hub namespace.
ip netns exec "$hub" ip link add br0 type bridge
ip netns exec "$hub" ip link set br0 up
for i in $(seq 0 $((hosts - 1))); do
  ip netns add "$prefix$i"
  ip link add "${prefix}e$i" type veth peer name "${prefix}p$i"
  ip link set "${prefix}e$i" netns "$prefix$i"
  ip link set "${prefix}p$i" netns "$hub"
  ip netns exec "$hub" ip link set "${prefix}p$i" master br0 up
  ip netns exec "$prefix$i" ip link set lo up
  ip netns exec "$prefix$i" ip addr add "10.213.0.$((i + 1))/24" dev "${prefix}e$i"
  ip netns exec "$prefix$i" ip link set "${prefix}e$i" up
  echo "10.213.0.$((i + 1)) slots=1" >> "$work/hostfile"
done
# Open MPI starts a remote rank as `AGENT HOST COMMAND...`, as it would run ssh.
cat > "$work/agent" << EOF
#!/bin/sh
host=\$1
shift
exec ip netns exec "$prefix\$((\${host##*.} - 1))" /bin/sh -c "\$*"
EOF
chmod +x "$work/agent"
launch=(ip netns exec "${prefix}0" timeout "${VBLITZ_HOSTS_TIMEOUT:-30}" "$mpiexec" --allow-run-as-root --hostfile "$work/hostfile"
  --mca plm_rsh_agent "$work/agent" --mca plm_rsh_no_tree_spawn 1 --mca btl self,tcp
  --mca btl_tcp_if_include 10.213.0.0/24 --mca oob_tcp_if_include 10.213.0.0/24 --bind-to none -np "$hosts")

# Ends whatever a run left in the hosts (an aborted run's daemons), so the next starts clean.
reap() {
  for i in $(seq 0 $((hosts - 1))); do
    for p in $(ip netns pids "$prefix$i" 2> /dev/null); do kill -9 "$p" 2> /dev/null || true; done
  done
  sleep 0.2
}

# Open MPI's launch across the namespaces now and then never starts the job (no output at all:
# no rank got as far as its first line). `job FEED ARGS...` runs ARGS on every host with the
# input that the function FEED writes, and starts it again, at most twice more, when the launch
# hung that way; a job that started and then hangs is a failure. It writes the seconds the attempt
# that ran took to $work/job.seconds (it runs in a subshell: a variable would not come back).
no_input() { :; }
job() {
  local feed=$1 status
  shift
  for attempt in 1 2 3; do
    status=0
    local began=$SECONDS
    "$feed" | "${launch[@]}" "$@" > "$work/job.out" 2> "$work/job.err" || status=$?
    if [[ $status == 124 && ! -s $work/job.out ]]; then
      echo "(launch $attempt of '$*' started nothing in ${VBLITZ_HOSTS_TIMEOUT:-30} s; again)" >&2
      reap
      continue
    fi
    echo $((SECONDS - began)) > "$work/job.seconds"
    cat "$work/job.out"
    return $status
  done
  return 1
}

# Every rank on its own host.
where=$(job no_input sh -c 'echo "$OMPI_COMM_WORLD_RANK $(ip -4 -o addr show scope global | awk "{print \$4}")"' | sort)
[[ $(awk '{print $2}' <<< "$where" | sort -u | wc -l) == "$hosts" ]] || fail "ranks not on $hosts hosts:\n$where"
# What a launch and an exit take here (on a loaded machine, many seconds): the timed checks
# below allow it on top of their own bounds.
launch_seconds=$(< "$work/job.seconds")
echo "ok $hosts hosts: $(tr '\n' ' ' <<< "$where") (a launch took $launch_seconds s)"

# Distributed perft against the published counts.
[[ $(job no_input "$vblitz" perft 5 | total) == 4865609 ]] || fail "perft 5 of the start position"
kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
[[ $(job no_input "$vblitz" perft 4 $kiwipete | total) == 4085603 ]] || fail "perft 4 of Kiwipete"
echo "ok perft over $hosts hosts: start position 5 = 4865609, Kiwipete 4 = 4085603"

# One legal bestmove; go infinite then stop; quit ends every host.
legal() { printf 'position startpos moves %s\n' "$1" | "$vblitz" | grep -q error && return 1 || [[ -n $1 ]]; }
depth9() { printf 'position startpos\ngo depth 9\n'; }
out=$(job depth9 "$vblitz")
move=$(sed -n 's/^bestmove \([a-h][1-8][a-h][1-8][qrbn]\?\).*/\1/p' <<< "$out")
[[ $(grep -c '^bestmove' <<< "$out") == 1 ]] && legal "$move" || fail "go depth 9:\n$out"
stop_quit() {
  printf 'position startpos\ngo infinite\n'
  sleep 2
  printf 'stop\n'
  sleep 1
  printf 'quit\n'
}
out=$(job stop_quit "$vblitz")
[[ $(grep -c '^bestmove [a-h]' <<< "$out") == 1 ]] || fail "go infinite, stop:\n$out"
took=$(< "$work/job.seconds")
# The input's 3 s of sleeps, then stop and quit within 5 s, on top of a launch's own time.
(( took <= launch_seconds + 3 + 5 )) || fail "stop and quit took $took s (a launch alone: $launch_seconds s)"
echo "ok UCI over $hosts hosts: bestmove $move at depth 9; stop and quit end every host in $took s"

# File options agree on every host: each rank in its own directory, so one relative path names a
# file per host. The same file is accepted; one that differs on one host is refused everywhere.
for i in $(seq 0 $((hosts - 1))); do
  mkdir "$work/r$i"
  "$vblitz" params > "$work/r$i/same.params"
  cp "$work/r$i/same.params" "$work/r$i/differs.params"
done
sed -i 's/^material\[1\] 310 300$/material[1] 311 300/' "$work/r$((hosts - 1))/differs.params"
file_options() {
  printf 'setoption name ParamFile value same.params\nsetoption name ParamFile value differs.params\n'
  printf 'position startpos moves e2e4\ngo perft 3\n'
}
out=$(job file_options sh -c "cd $work/r\$OMPI_COMM_WORLD_RANK && exec $vblitz")
grep -q '^info string parameters from same.params' <<< "$out" || fail "same file not accepted:\n$out"
grep -q "^info string error: ParamFile: 'differs.params' differs between the processes" <<< "$out" ||
  fail "a file that differs on one host not refused:\n$out"
[[ $(total <<< "$out") == 13160 ]] || fail "go perft 3 after the file options:\n$out"
echo "ok file options over $hosts hosts: the same file accepted, one differing on host $((hosts - 1)) refused"

# Every rank killed (SIGKILL) in turn, and every rank but 0 stopped (SIGSTOP), during go infinite:
# a stopped rank leaves rank 0 answering with its own move within 5 s of `stop`; every run ends
# (Open MPI's abort crosses the hosts) within 10 s, never hangs.
rank_pid() {  # waits up to 10 s for the rank's process to exist
  for _ in $(seq 100); do
    for p in $(pgrep -x "$(basename "$vblitz")"); do
      if tr '\0' '\n' < "/proc/$p/environ" 2> /dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1"; then
        echo "$p"
        return
      fi
    done
    sleep 0.1
  done
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# Starts a run on every host with its input on fd 3 (the fifo $work/in), its pid in $run, and
# waits until it answers `isready`; started again, at most twice more, when the launch hangs
# (no answer in 20 s). `start_run NAME [COMMAND...]` (default: the engine).
start_run() {
  local name=$1 attempt
  shift
  (($#)) || set -- "$vblitz"
  for attempt in 1 2 3; do
    rm -f "$work/in" "$work/out" "$work/err"
    mkfifo "$work/in"
    "${launch[@]}" "$@" < "$work/in" > "$work/out" 2> "$work/err" &
    run=$!
    exec 3> "$work/in"
    printf 'isready\n' >&3
    for _ in $(seq 200); do
      grep -q '^readyok' "$work/out" 2> /dev/null && return
      sleep 0.1
    done
    echo "(launch $attempt for $name started nothing in 20 s; again)" >&2
    exec 3>&-
    kill -9 $run 2> /dev/null || true
    wait $run 2> /dev/null || true
    reap
  done
  fail "$name: three launches started nothing"
}
move=
for signal in KILL STOP; do
  for victim in $(seq 0 $((hosts - 1))); do
    [[ $signal == STOP && $victim == 0 ]] && continue  # a stopped rank 0 cannot answer at all
    start_run "rank $victim SIG$signal"
    printf 'position startpos\ngo infinite\n' >&3
    sleep 2
    pid=$(rank_pid "$victim")
    [[ -n $pid ]] || fail "no process of rank $victim"
    kill -"$signal" "$pid"
    sleep 0.5
    start=$(now_ms)
    printf 'stop\n' >&3 2> /dev/null || true
    answered=
    while kill -0 $run 2> /dev/null; do  # the moment rank 0 answers, while the run ends
      [[ -z $answered ]] && grep -q '^bestmove' "$work/out" && answered=$(($(now_ms) - start))
      sleep 0.05
    done
    status=0
    wait $run || status=$?
    exec 3>&-
    elapsed=$(($(now_ms) - start))
    kill -CONT "$pid" 2> /dev/null || true
    reap
    out=$(cat "$work/out" "$work/err")
    (( status != 124 )) || fail "rank $victim SIG$signal: the run hung:\n$out"
    (( elapsed <= 10000 )) || fail "rank $victim SIG$signal: the run ended $elapsed ms after stop:\n$out"
    if [[ $signal == STOP ]]; then
      move=$(sed -n 's/^bestmove \([a-h][1-8][a-h][1-8][qrbn]\?\).*/\1/p' "$work/out")
      legal "$move" || fail "rank $victim stopped: no legal bestmove from rank 0:\n$out"
      (( ${answered:-99999} <= 5000 )) || fail "rank $victim stopped: rank 0 answered after ${answered:-no} ms:\n$out"
    fi
    # mpirun ends rank 0 with SIGTERM and rank 0 says so, but across hosts Open MPI's teardown can
    # cut its output before it arrives: reported, not required (check_cluster.sh requires it).
    word=
    [[ $signal == KILL ]] && (( victim != 0 )) && word=", rank 0's word: no"
    grep -q '^info string error: cluster: the run was ended by SIGTERM' "$work/out" && word=", rank 0's word: yes"
    echo "ok rank $victim SIG$signal mid-search: ${move:+bestmove $move after $answered ms, }the run ended $elapsed ms after stop$word"
    move=
  done
done

# The last host's rank stopped (SIGSTOP) while the run is idle, then each collective of the
# protocol: a file option's check, a shared perft stopped, a search on the clock, quit. Rank 0
# waits at most its deadline (cluster::kAnswerDeadline, 5 s), names the rank, and the run ends
# non-zero; the clock search answers within the clock first. The bound adds the ping's second and
# a margin from a measured `isready` round trip across the hosts (a loaded machine stretches it).
last=$((hosts - 1))
for case in file perft clock quit; do
  start_run "$case with rank $last stopped" sh -c "cd $work/r\$OMPI_COMM_WORLD_RANK && exec $vblitz"
  began=$(now_ms)
  printf 'isready\n' >&3
  until (($(grep -c '^readyok' "$work/out") >= 2)); do
    (($(now_ms) - began < 30000)) || fail "$case: no second readyok within 30 s"
    sleep 0.01
  done
  isready=$(($(now_ms) - began))
  pid=$(rank_pid "$last")
  [[ -n $pid ]] || fail "$case: no process of rank $last"
  kill -STOP "$pid"
  start=$(now_ms)
  case $case in
    file) printf 'setoption name ParamFile value same.params\nisready\n' >&3 ;;
    perft) printf 'go perft 7\n' >&3; sleep 0.5; printf 'stop\n' >&3 ;;
    clock) printf 'position startpos moves e2e4\ngo wtime 1000 btime 1000\n' >&3 ;;
    quit) printf 'quit\n' >&3 ;;
  esac
  answered= named=
  while kill -0 $run 2> /dev/null; do
    [[ -z $answered ]] && grep -q '^bestmove' "$work/out" && answered=$(($(now_ms) - start))
    [[ -z $named ]] && grep -q '^info string error: cluster: ' "$work/out" && named=$(($(now_ms) - start))
    sleep 0.02
  done
  status=0
  wait $run || status=$?
  exec 3>&-
  elapsed=$(($(now_ms) - start))
  kill -CONT "$pid" 2> /dev/null || true
  reap
  out=$(cat "$work/out" "$work/err")
  # Rank 0 speaks within its deadline, the ping's second and the margin; the run ends by the
  # other ranks' own deadline (3 s longer) whatever MPI_Abort's reach across the hosts.
  bound=$((5000 + 1000 + 2000 + 2 * isready))
  [[ $case == perft ]] && bound=$((bound + 2000))  # perft's sums wait twice its own time more
  (( status != 124 )) || fail "$case with rank $last stopped: the run hung:\n$out"
  (( status != 0 )) || fail "$case with rank $last stopped: exit 0:\n$out"
  (( ${named:-99999} <= bound )) || fail "$case with rank $last stopped: rank 0 spoke after ${named:-no} ms (bound $bound ms):\n$out"
  (( elapsed <= bound + 3000 )) || fail "$case with rank $last stopped: ended after $elapsed ms (bound $((bound + 3000)) ms):\n$out"
  if [[ $case == clock ]]; then
    move=$(sed -n 's/^bestmove \([a-h][1-8][a-h][1-8][qrbn]\?\).*/\1/p' "$work/out")
    [[ -n $move ]] && legal "e2e4 $move" || fail "clock with rank $last stopped: no legal bestmove:\n$out"
    (( ${answered:-99999} <= 1500 + 2 * isready )) || fail "clock with rank $last stopped: bestmove after ${answered:-no} ms:\n$out"
    grep -q '^info string error: cluster: ' "$work/out" || fail "clock with rank $last stopped: no reason given:\n$out"
  else
    grep -q "^info string error: cluster: rank $last did not answer" "$work/out" ||
      fail "$case with rank $last stopped: rank $last not named:\n$out"
  fi
  echo "ok $case with rank $last stopped: rank 0 said so after $named ms (bound $bound ms), the run ended in $elapsed ms (status $status)${answered:+, bestmove after $answered ms}"
  move=
done
