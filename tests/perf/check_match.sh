#!/usr/bin/env bash
# perf/match.sh: each kind of match builds the fastchess command of docs/strength.md, bad
# arguments exit 2 with a message and run nothing, and a real run hands fastchess exactly those
# arguments (a stand-in fastchess records them, one a line, so an option with a space in it,
# Stockfish's "Use NNUE", must arrive whole).
set -euo pipefail
match=${1:?usage: check_match.sh perf/match.sh}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'x\n' > "$dir/new.nnue"
printf 'y\n' > "$dir/old.nnue"
fail=0 cases=0
# expect NAME 'WORD...' 'ABSENT...' -- ARGS: a dry run prints every WORD and no ABSENT one.
expect() {
  local name=$1 words=$2 absent=$3 out w
  shift 4
  cases=$((cases + 1))
  if ! out=$(bash "$match" --dry-run "$@" 2>&1); then echo "$name: exited non-zero: $out"; fail=1; return; fi
  for w in $words; do [[ " $out " == *" $w "* ]] || { echo "$name: no '$w' in: $out"; fail=1; }; done
  for w in $absent; do [[ " $out " != *" $w"* ]] || { echo "$name: '$w' in: $out"; fail=1; }; done
}
# refuse NAME MESSAGE -- ARGS: exit 2 with MESSAGE on stderr.
refuse() {
  local name=$1 message=$2 out rc=0
  shift 3
  cases=$((cases + 1))
  out=$(FASTCHESS=/bin/false bash "$match" "$@" 2>&1) || rc=$?
  [[ $rc == 2 && $out == *"$message"* ]] || { echo "$name: exit $rc, '$out'"; fail=1; }
}

expect nets-default "nodes=10000 option.Hash=16 -rounds 400 option.EvalFile=$dir/new.nnue option.EvalFile=$dir/old.nnue" \
  "-draw -resign tc=10+0.1" -- nets "$dir/new.nnue" "$dir/old.nnue"
expect nets-clock "tc=10+0.1 option.Hash=64 -rounds 100 -srand 254 -draw -resign twosided=true" "nodes=" \
  -- --tc 10+0.1 --srand 254 nets "$dir/new.nnue" "$dir/old.nnue"
expect peer-classical "cmd=/usr/games/stockfish option.Use\\ NNUE=false tc=10+0.1 -rounds 100" "nodes=" \
  -- peer stockfish-classical
expect peer-ethereal "cmd=/usr/games/ethereal-chess name=ethereal12" "NNUE" -- peer ethereal
expect elo "option.UCI_Elo=2000 cmd=/usr/games/stockfish -rounds 50 tc=10+0.1" "nodes=" -- elo 2000
expect carry-over "option.UCI_Elo=1500 nodes=140 option.Hash=64 -draw -sprt" "tc=10+0.1 cmd=/usr/games/stockfish" \
  -- --elo 1500 --nodes 140 nets "$dir/new.nnue" "$dir/old.nnue" -- -sprt
refuse unknown-match "unknown match" -- tourney
refuse nodes-and-clock "not both" -- --nodes 10 --tc 1+0 peer ethereal
refuse bad-number "whole number" -- --rounds many peer ethereal
refuse bad-hash "whole number" -- --hash 64MB peer ethereal
refuse missing-network "no network file" -- nets "$dir/new.nnue" "$dir/none.nnue"
refuse elo-against-peer "--elo is for nets and builds" -- --elo 1500 peer ethereal
refuse unknown-peer "unknown peer" -- peer crafty

# A real run: the stand-in records its arguments; they must be the dry run's, word for word.
cat > "$dir/fastchess" <<'STAND_IN'
#!/usr/bin/env bash
printf '%s\n' "$@" > "$(dirname "$0")/args"
echo "Elo: 88.74 +/- 136.27, LOS: 92.1 %, DrawRatio: 50.0 %"
echo "Games: 4, Wins: 2, Losses: 1, Draws: 1, Points: 2.5 (62.50 %)"
echo "Ptnml(0-2): [0, 0, 1, 1, 0]"
STAND_IN
chmod +x "$dir/fastchess"
printf '#!/bin/sh\n' > "$dir/vblitz" && chmod +x "$dir/vblitz"
cases=$((cases + 1))
FASTCHESS=$dir/fastchess bash "$match" --vblitz "$dir/vblitz" --ledger "$dir/ledger.jsonl" --srand 7 \
  peer stockfish-classical > /dev/null
if ! grep -qx 'option.Use NNUE=false' "$dir/args" || ! grep -qx "cmd=$dir/vblitz" "$dir/args" ||
  [[ $(grep -c '^-engine$' "$dir/args") != 2 ]]; then
  echo "real run: fastchess was given:"; cat "$dir/args"; fail=1
fi
# The finished match is one ledger record with the runner's figures and the match's settings.
cases=$((cases + 1))
record=$(cat "$dir/ledger.jsonl" 2>/dev/null || true)
for want in '"kind": "peer"' '"opponent": "Stockfish 15.1, `Use NNUE` false"' '"games": 4' '"wins": 2' \
  '"ptnml": [0, 0, 1, 1, 0]' '"score": 62.5' '"elo": 88.7' '"srand": 7' '"conditions": "10+0.1, one thread and Hash 64 each"'; do
  [[ $record == *"$want"* ]] || { echo "ledger record has no $want: $record"; fail=1; }
done
[[ $(wc -l < "$dir/ledger.jsonl") == 1 ]] || { echo "ledger: $(wc -l < "$dir/ledger.jsonl") records, want 1"; fail=1; }
# Two networks: a network record with what NEW learned from and what was decided; a budget
# carried over at a UCI_Elo level: a uci_elo record with the budget.
cases=$((cases + 1))
FASTCHESS=$dir/fastchess bash "$match" --vblitz "$dir/vblitz" --ledger "$dir/ledger.jsonl" --srand 8 \
  --data "s61 + s62" --shape "H=256" --decision "no: not better" nets "$dir/new.nnue" "$dir/old.nnue" > /dev/null
FASTCHESS=$dir/fastchess bash "$match" --vblitz "$dir/vblitz" --ledger "$dir/ledger.jsonl" --srand 9 \
  --elo 1500 --nodes 140 nets "$dir/new.nnue" "$dir/old.nnue" > /dev/null
record=$(sed -n 2p "$dir/ledger.jsonl")
for want in '"kind": "network"' '"data": "s61 + s62"' '"shape": "H=256"' '"decision": "no: not better"' '"srand": 8' \
  '"conditions": "10000 nodes, Hash 16"'; do
  [[ $record == *"$want"* ]] || { echo "network record has no $want: $record"; fail=1; }
done
record=$(sed -n 3p "$dir/ledger.jsonl")
for want in '"kind": "uci_elo"' '"uci_elo": 1500' '"node_budget": 140' 'at UCI_Elo 1500, 140 nodes'; do
  [[ $record == *"$want"* ]] || { echo "carry-over record has no $want: $record"; fail=1; }
done
# Two builds: a search record with each build's bench signature and the change, no path.
cases=$((cases + 1))
for b in new old; do
  printf '#!/bin/sh\n[ "$1" = bench ] && echo "Nodes searched: %s" && exit 0\ncat > /dev/null\n' \
    "$([[ $b == new ]] && echo 111 || echo 222)" > "$dir/vblitz-$b"
  chmod +x "$dir/vblitz-$b"
done
FASTCHESS=$dir/fastchess bash "$match" --ledger "$dir/ledger.jsonl" --srand 10 --change "a new rule" \
  builds "$dir/vblitz-new" "$dir/vblitz-old" > /dev/null
record=$(sed -n 4p "$dir/ledger.jsonl")
for want in '"kind": "search"' '"signature": 111' '"opponent": "the build before the change (bench 222)"' \
  '"change": "a new rule"' '"srand": 10'; do
  [[ $record == *"$want"* ]] || { echo "search record has no $want: $record"; fail=1; }
done
[[ $record != *"$dir"* ]] || { echo "search record names a path: $record"; fail=1; }
[[ $fail == 0 ]] && echo "match.sh: $cases cases pass"
exit $fail
