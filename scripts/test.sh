#!/usr/bin/env bash
# The whole test suite: lint and format, types, a production build, unit and database tests (SQLite and PostgreSQL,
# the server, crash and outage tests against that build), then browser tests in Debian's Chromium
# against the same build and a real database.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
[ -d node_modules/.bin ] || npm install
bash scripts/ensure-chromium.sh
bash scripts/prisma.sh generate
echo "== lint and format (Biome)"
node_modules/.bin/biome ci .
echo "== typecheck"
node_modules/.bin/tsc --noEmit
echo "== build"
bash scripts/build.sh
echo "== unit and database tests"
node_modules/.bin/vitest run
echo "== browser tests"
SKIP_BUILD=1 bash scripts/e2e.sh
