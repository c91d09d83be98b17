#!/usr/bin/env bash
# The inner loop (`npm run test:fast`): lint and format, types, and the unit tests that need no database,
# server or browser (vitest.fast.config.ts). Types and tests run side by side; both must pass.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== lint and format (Biome)"
node_modules/.bin/biome ci .
echo "== typecheck and unit tests"
node_modules/.bin/tsc --noEmit &
typecheck=$!
status=0
node_modules/.bin/vitest run --config vitest.fast.config.ts || status=$?
wait "$typecheck" || status=$?
exit "$status"
