#!/usr/bin/env bash
# The minimal build (preset `minimal`: Highway, OpenMP and hwloc alone, no tests, benchmarks or
# JSON) plays the same engine: its bench signature is the pinned one, and `--json` is refused
# with a message and exit status 2.
set -euo pipefail
vblitz=${1:?usage: check-minimal.sh build/minimal/vblitz}
root=$(dirname "$0")/..
want=$(sed -n 's/^network //p' "$root/tests/bench_signature.txt")
got=$("$vblitz" bench | sed -n 's/^Nodes searched: //p')
[[ $got == "$want" ]] || { echo "minimal build: bench signature $got, pinned $want" >&2; exit 1; }
status=0
message=$("$vblitz" bench 2 --json /tmp/vblitz-minimal.json 2>&1 >/dev/null) || status=$?
[[ $status == 2 && $message == *"no JSON results"* ]] ||
  { echo "minimal build: --json gave exit $status, '$message'" >&2; exit 1; }
echo "minimal build: bench signature $got as pinned; --json refused"
