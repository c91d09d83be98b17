#!/usr/bin/env bash
# Browser tests run in Debian's Chromium: Playwright's own download cannot reach its host here.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
echo "ensure-chromium: $CHROMIUM is missing, installing Debian's chromium"
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 || {
  $SUDO apt-get update >/dev/null
  $SUDO apt-get install -y --no-install-recommends chromium >/dev/null
}
[ -x "$CHROMIUM" ] || { echo "ensure-chromium: install finished but $CHROMIUM is still missing" >&2; exit 1; }
