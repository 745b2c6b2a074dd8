#!/usr/bin/env bash
# Installs the Debian 12 packages VBlitz needs to build, test and benchmark (as root).
# Skips apt entirely when everything is already there.
set -euo pipefail
packages=(cmake make g++ clang libhwy-dev libomp-dev libgtest-dev libbenchmark-dev libclang-rt-14-dev clang-format
  polyglot stockfish python3 python3-jsonschema nlohmann-json3-dev dpkg-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
