#!/usr/bin/env bash
# `npm run build`: Next's production build, then the server entry bundled into the same folder
# (`${NEXT_DIST_DIR:-.next}/context-lab-server.mjs`, lib/server/README.md SV-8).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
node_modules/.bin/next build
node --import tsx scripts/bundle-server.ts
