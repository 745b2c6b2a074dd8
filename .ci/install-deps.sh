#!/usr/bin/env bash
# Installs the Debian 12 packages VBlitz needs to build, test and benchmark (as root).
# Skips apt entirely when everything is already there.
set -euo pipefail
bash "$(dirname "$0")/apt-install-missing.sh" cmake make ccache g++ clang libhwy-dev libomp-dev libgtest-dev \
  libbenchmark-dev libclang-rt-14-dev clang-format polyglot fairymax stockfish python3 python3-jsonschema \
  nlohmann-json3-dev dpkg-dev libhwloc-dev
