#!/usr/bin/env bash
# Installs Open MPI for the optional cluster build (the `mpi` preset; Debian 12, as root), and
# iproute2 for its multi-host test in network namespaces.
set -euo pipefail
bash "$(dirname "$0")/apt-install-missing.sh" libopenmpi-dev openmpi-bin iproute2
