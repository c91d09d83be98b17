#!/usr/bin/env bash
# The whole test suite: types, unit and database tests (SQLite and PostgreSQL), then
# browser tests in Debian's Chromium against a production build and a real database.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
[ -d node_modules/.bin ] || npm install
bash scripts/ensure-chromium.sh
bash scripts/prisma.sh generate
echo "== typecheck"
node_modules/.bin/tsc --noEmit
echo "== unit and database tests"
node_modules/.bin/vitest run
echo "== browser tests"
bash scripts/e2e.sh
