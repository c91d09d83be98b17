#!/usr/bin/env bash
# Builds the app (unless SKIP_BUILD=1: scripts/test.sh has just built it) and runs the Playwright
# specs against the app server (scripts/serve.sh start) on a fresh SQLite file.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-chromium.sh
[ "${SKIP_BUILD:-}" = 1 ] || bash scripts/build.sh
node_modules/.bin/playwright test "$@"
