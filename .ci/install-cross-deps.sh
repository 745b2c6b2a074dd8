#!/usr/bin/env bash
# Installs what the aarch64 cross build and its tests under qemu need (Debian 12, as root):
# the cross compiler, the arm64 multiarch libraries and qemu-user. Skips apt when all is there.
set -euo pipefail
packages=(g++-aarch64-linux-gnu libhwy-dev:arm64 libgtest-dev:arm64 libbenchmark-dev:arm64 qemu-user)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
