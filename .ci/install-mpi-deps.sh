#!/usr/bin/env bash
# Installs Open MPI for the optional cluster build (the `mpi` preset; Debian 12, as root).
# Skips apt when it is already there.
set -euo pipefail
packages=(libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
