#!/usr/bin/env bash
# Builds the app (unless SKIP_BUILD=1: scripts/test.sh has just built it) and runs the Playwright
# specs against `next start` on a fresh SQLite file.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-chromium.sh
[ "${SKIP_BUILD:-}" = 1 ] || node_modules/.bin/next build
node_modules/.bin/playwright test "$@"
