#!/usr/bin/env bash
# The aarch64 build under qemu-user on every vector width (docs/portability.md): for NEON and
# for SVE at 128, 256, 512 and 2048 bits it runs every kernel test against its scalar twin on
# each target the CPU offers, two perft counts, and `sweep bench` in both evaluations (every kernel
# setting and target must give one node count), then checks that count against the native
# x86 build's; and the perft suites once. The checks run side by side, one per host core. Prints
# one markdown row per CPU; exits 1 if any check found a difference.
#
# usage: .ci/check-aarch64.sh AARCH64_BUILD_DIR NATIVE_VBLITZ [BENCH_DEPTH]
set -euo pipefail
build=$(realpath "$1")
native=$(realpath "$2")
depth=${3:-8}
export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
# Every emulated run has a time limit, so a hang fails the check instead of the whole CI.
# qemu-user 7.2 (Debian 12) hangs here on a program's second thread (a plain std::thread or an
# OpenMP region on kernel 6.x), so the threaded tests run only natively (release, asan, tsan).
qemu() { timeout 900 qemu-aarch64 "$@"; }
arm() { qemu "$build/vblitz" "$@"; }
single_threaded='-*Threaded*'
signature() { grep -m1 'Nodes searched' | awk '{print $3}'; }

declare -A expected
for mode in classic network; do
  expected[$mode]=$("$native" bench "$depth" --eval-mode "$mode" 2>/dev/null | signature)
done
# Perft: the start position and Kiwipete, against their published counts.
kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# The standard and CPW perft suites once (move generation is scalar code; the kernels are
# checked per target).
check_suites() {
  local suites
  suites=$(QEMU_CPU=cortex-a72 qemu "$build/tests/vblitz_core_tests" --gtest_filter='Perft.StandardSuite:Perft.CpwSuite' --gtest_brief=1 2>&1 | tail -1)
  [[ $suites == *PASSED* ]] || { echo "perft suites failed: $suites"; return 1; }
  echo "perft suites (standard, CPW) on cortex-a72: $(grep -o '[0-9]* tests' <<< "$suites") passed"
}
# One row per emulated CPU.
check_cpu() {
  export QEMU_CPU=$1
  local targets tests start kiwi row out got
  targets=$(arm --version | sed -n 's/^SIMD targets compiled in and supported here: //p')
  tests=$(qemu "$build/tests/vblitz_simd_tests" --gtest_brief=1 --gtest_filter="$single_threaded" 2>&1 | tail -1)
  [[ $tests == *PASSED* ]] || { echo "kernel tests failed on $QEMU_CPU: $tests"; return 1; }
  start=$(arm perft 4 | sed -n 's/^Nodes searched: //p')
  kiwi=$(arm perft 3 "$kiwipete" | sed -n 's/^Nodes searched: //p')
  [[ $start == 197281 && $kiwi == 97862 ]] || { echo "perft wrong on $QEMU_CPU: $start $kiwi"; return 1; }
  row="| $QEMU_CPU | $targets | $(grep -o '[0-9]* tests' <<< "$tests") passed | 197281, 97862 |"
  for mode in classic network; do
    out=$(arm sweep bench --depth "$depth" --rounds 1 --eval-mode "$mode" 2>&1) ||
      { echo "$out"; echo "sweep: signatures differ between kernels or targets on $QEMU_CPU"; return 1; }
    got=$(sed -n 's/^Signature \([0-9]*\) in every run$/\1/p' <<< "$out")
    [[ $got == "${expected[$mode]}" ]] ||
      { echo "$out"; echo "bench $depth $mode on $QEMU_CPU: $got, x86: ${expected[$mode]}"; return 1; }
    row+=" $got |"
  done
  echo "$row"
}

# The checks run side by side, one per host core (each emulated run is one thread), the widest
# SVE (the slowest to emulate) first; their output is printed in order once all have ended.
cpus=(cortex-a72 max,sve-max-vq=1 max,sve-max-vq=2 max,sve-max-vq=4 max,sve-max-vq=16)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {  # run NAME COMMAND...: in the background, at most one per core
  local name=$1
  shift
  while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || true; done
  ("$@" > "$out/$name" 2>&1 && touch "$out/$name.ok") &
}
for ((i = ${#cpus[@]} - 1; i >= 0; --i)); do run "cpu$i" check_cpu "${cpus[$i]}"; done
run suites check_suites
wait
cat "$out/suites"
echo
echo "| QEMU_CPU | targets (best first) | kernel tests | perft (start d4, Kiwipete d3) | bench $depth classic | bench $depth network |"
echo "|---|---|---|---|---|---|"
failed=0
for i in "${!cpus[@]}"; do
  cat "$out/cpu$i"
  [[ -e $out/cpu$i.ok ]] || failed=1
done
[[ -e $out/suites.ok ]] || failed=1
exit $failed
