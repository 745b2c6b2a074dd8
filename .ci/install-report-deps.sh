#!/usr/bin/env bash
# Installs what the HTML report's check needs (Debian 12, as root): Chromium to render the page
# headless, Pillow to read its screenshot, and a font.
set -euo pipefail
bash "$(dirname "$0")/apt-install-missing.sh" chromium python3-pil fonts-dejavu-core
