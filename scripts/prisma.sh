#!/usr/bin/env bash
# Runs Prisma 6 offline with its WebAssembly engines (README: Requirements):
# the CLI checks these two paths exist before it starts, and never runs them in
# this mode, so any existing file stops it from trying to download engines.
set -euo pipefail
cd "$(dirname "$0")/.."
export PRISMA_SCHEMA_ENGINE_BINARY="${PRISMA_SCHEMA_ENGINE_BINARY:-/bin/true}"
export PRISMA_QUERY_ENGINE_LIBRARY="${PRISMA_QUERY_ENGINE_LIBRARY:-/bin/true}"
export PRISMA_HIDE_UPDATE_MESSAGE=1
export DATABASE_URL="${DATABASE_URL:-file:./data/context-lab.db}"
prisma="node_modules/.bin/prisma"

target_of() {
  case "$1" in postgres://*|postgresql://*) echo postgres ;; *) echo sqlite ;; esac
}
schema_of() {
  if [ "$1" = postgres ]; then echo prisma/postgres/schema.prisma; else echo prisma/schema.prisma; fi
}

case "${1:-}" in
  generate)
    # Both clients are generated so one build serves either database.
    for target in sqlite postgres; do
      PRISMA_TARGET=$target "$prisma" generate --schema "$(schema_of $target)" >/dev/null
    done
    echo "prisma: generated the sqlite and postgres clients"
    ;;
  migrate)
    if [ $# -gt 1 ]; then
      # `migrate status`, `migrate diff ...`: Prisma's own subcommands, not a silent deploy.
      PRISMA_TARGET=$(target_of "$DATABASE_URL") "$prisma" "$@"
      exit
    fi
    target=$(target_of "$DATABASE_URL")
    if [ "$target" = sqlite ]; then
      file="${DATABASE_URL#file:}"
      mkdir -p "$(dirname "$file")"
    fi
    PRISMA_TARGET=$target "$prisma" migrate deploy --schema "$(schema_of $target)"
    # Data the schema migrations cannot rewrite in SQL: requests stored whole become deltas (PX-D6.6).
    node --conditions=react-server --import tsx scripts/compact-requests.ts
    # Conversations stored before the library: their search words (LB-6).
    node --conditions=react-server --import tsx scripts/index-library.ts
    ;;
  *)
    PRISMA_TARGET=$(target_of "$DATABASE_URL") "$prisma" "$@"
    ;;
esac
