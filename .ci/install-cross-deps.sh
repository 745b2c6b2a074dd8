#!/usr/bin/env bash
# Installs what the aarch64 cross build and its tests under qemu need (Debian 12, as root):
# the cross compiler, the arm64 multiarch libraries and qemu-user.
set -euo pipefail
bash "$(dirname "$0")/apt-install-missing.sh" g++-aarch64-linux-gnu libhwy-dev:arm64 libgtest-dev:arm64 \
  libbenchmark-dev:arm64 qemu-user
