#!/usr/bin/env bash
# perf/soak.sh's games_in: the games a block's PGN holds decide whether the block is skipped on
# a resumed run. A missing PGN and one holding no games count 0 (an empty one used to print
# "0" twice, which broke the skip test), a PGN with games counts them.
set -euo pipefail
soak=${1:?usage: check_soak_count.sh perf/soak.sh}
eval "$(grep '^games_in()' "$soak")"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
: > "$dir/empty.pgn"
printf '[Event "x"]\n[Result "1-0"]\n\n1. e4 1-0\n\n[Event "x"]\n[Result "*"]\n\n*\n' > "$dir/two.pgn"
fail=0
check() { local got; got=$(games_in "$1"); [[ $got == "$2" ]] || { echo "games_in $1: '$got', expected '$2'"; fail=1; }; }
check "$dir/missing.pgn" 0
check "$dir/empty.pgn" 0
check "$dir/two.pgn" 2
(( $(games_in "$dir/empty.pgn") >= 1 )) && { echo "an empty PGN counted as done"; fail=1; }
[[ $fail == 0 ]] && echo "games_in: 3 cases pass"
exit $fail
