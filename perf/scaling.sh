#!/usr/bin/env bash
# The scaling checks of a machine in one command (perf/scaling.py): speedtest, time and nodes to
# depth, and self-play positions per second at 1, 2, 4, ... N and 2N threads, printed as a table
# and written as JSON under OUT (default perf/results/<cpu>-<N>t-scaling) for perf/report.py.
#
# usage: perf/scaling.sh [VBLITZ] [OUT] [-- scaling.py options, e.g. --threads 1,2,4 --depth 16]
set -euo pipefail
here=$(dirname "$(realpath "$0")")
vblitz=${1:-$here/../build/release/vblitz}
[[ $# -gt 0 && $1 != -- ]] && shift
[[ -x $vblitz ]] || { echo "scaling.sh: no executable $vblitz (build it, or name it)" >&2; exit 2; }
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | tr -cs 'A-Za-z0-9' '-' | sed 's/^-//; s/-$//' | tr 'A-Z' 'a-z')
out=${1:-$here/results/${cpu:-machine}-$(nproc)t-scaling}
[[ $# -gt 0 && $1 != -- ]] && shift
[[ ${1:-} == -- ]] && shift
exec python3 "$here/scaling.py" --vblitz "$vblitz" --out "$out" "$@"
