#!/usr/bin/env bash
# Installs those of the Debian packages named on the command line that are not installed yet
# (as root); skips apt entirely when all are there. Packages of a foreign architecture
# (name:arm64) get that architecture added to dpkg first.
set -euo pipefail
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]})) || exit 0
for p in "${missing[@]}"; do
  if [[ $p == *:* ]] && ! dpkg --print-foreign-architectures | grep -qx "${p#*:}"; then
    dpkg --add-architecture "${p#*:}"
  fi
done
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
