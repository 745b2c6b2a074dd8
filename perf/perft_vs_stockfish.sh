#!/usr/bin/env bash
# Times `go perft` for VBlitz and Stockfish in the same run and prints millions of leaf nodes
# per second (median of N runs, engines alternating so machine noise hits both alike).
#   usage: perf/perft_vs_stockfish.sh [runs=3] [vblitz binary] [stockfish binary]
set -euo pipefail
runs=${1:-3}
vblitz=${2:-build/release/vblitz}
stockfish=${3:-/usr/games/stockfish}
[ -x "$vblitz" ] || { echo "no VBlitz binary at $vblitz (build the release preset first)" >&2; exit 1; }
[ -x "$stockfish" ] || { echo "no Stockfish at $stockfish (apt-get install stockfish)" >&2; exit 1; }

# name|position command|depth
cases=(
  "start position|position startpos|7"
  "Kiwipete|position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|6"
)

# Prints "<nodes> <seconds>" for one engine run, timed from outside the process.
run_perft() {
  local engine=$1 position=$2 depth=$3 start end nodes
  start=$(date +%s%N)
  # No quit: it would stop VBlitz's count; at the end of input both engines finish counting.
  nodes=$(printf '%s\ngo perft %s\n' "$position" "$depth" | "$engine" 2>/dev/null |
    awk '/^Nodes searched/ {print $3}')
  end=$(date +%s%N)
  echo "$nodes $(awk -v ns=$((end - start)) 'BEGIN {printf "%.3f", ns / 1e9}')"
}

median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores; $(date -u +%Y-%m-%d)"
echo
echo "| position | depth | leaf nodes | VBlitz Mnps | Stockfish 15.1 Mnps | ratio |"
echo "|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
  IFS='|' read -r name position depth <<<"$c"
  v_rates=() s_rates=() nodes=""
  for ((i = 0; i < runs; i++)); do
    read -r vn vt < <(run_perft "$vblitz" "$position" "$depth")
    read -r sn st < <(run_perft "$stockfish" "$position" "$depth")
    if [ "$vn" != "$sn" ]; then echo "node counts differ on $name: VBlitz $vn, Stockfish $sn" >&2; exit 1; fi
    nodes=$vn
    v_rates+=("$(awk -v n="$vn" -v t="$vt" 'BEGIN {print n / t / 1e6}')")
    s_rates+=("$(awk -v n="$sn" -v t="$st" 'BEGIN {print n / t / 1e6}')")
  done
  v=$(printf '%s\n' "${v_rates[@]}" | median)
  s=$(printf '%s\n' "${s_rates[@]}" | median)
  printf '| %s | %s | %s | %.1f | %.1f | %.2fx |\n' "$name" "$depth" "$nodes" "$v" "$s" \
    "$(awk -v a="$v" -v b="$s" 'BEGIN {print a / b}')"
done
