#!/usr/bin/env bash
# Installs the Debian package that `cmake --workflow --preset package` made (as root, with apt
# resolving its dependencies), checks that the installed vblitz runs (--version, bench with the
# signature of the build tree's binary, the man page,
# the copyright file naming the licence) and removes the package again.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(ls build/release/vblitz_*.deb)
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq --no-install-recommends "./$deb" >/dev/null
trap 'apt-get remove -y -qq vblitz >/dev/null' EXIT
/usr/bin/vblitz --version
installed=$(/usr/bin/vblitz bench 8 | grep 'Nodes searched')
built=$(build/release/vblitz bench 8 | grep 'Nodes searched')
echo "installed: $installed; build tree: $built"
[ "$installed" = "$built" ]
test -f /usr/share/man/man6/vblitz.6
test -f /usr/share/doc/vblitz/result.schema.json
grep -q '^License: GPL-3.0-or-later' /usr/share/doc/vblitz/copyright
ls /usr/share/vblitz/*.nnue
echo "package check passed"
