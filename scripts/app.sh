#!/usr/bin/env bash
# From a fresh clone to the running app: install, migrate the embedded SQLite
# database (data/context-lab.db unless DATABASE_URL says otherwise), build, start
# on 127.0.0.1 (HOST and PORT honoured; see scripts/serve.sh for binding elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
npm install --no-audit --no-fund
bash scripts/prisma.sh migrate
bash scripts/build.sh
exec bash scripts/serve.sh start
