#!/usr/bin/env bash
# Starts Context Lab (`serve.sh start` for the production build, `serve.sh dev`), optionally
# migrating first (`--migrate`), through its own server (lib/server, SV-1): the recording proxy
# and the live streams answered by plain handlers, everything else by Next. It binds 127.0.0.1
# unless HOST says otherwise, and refuses to bind anything but this machine's loopback without
# an access token (CONTEXT_LAB_TOKEN).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
mode="${1:-start}"
case "$mode" in start|dev) ;; *) echo "usage: scripts/serve.sh start|dev [--migrate]" >&2; exit 2 ;; esac
host="${HOST:-127.0.0.1}"
port="${PORT:-3000}"
token="${CONTEXT_LAB_TOKEN:-}"
token="${token//[[:space:]]/}"

case "$host" in
  127.*|localhost|::1|"[::1]") loopback=1 ;;
  *) loopback=0 ;;
esac
if [ "$loopback" = 0 ] && [ -z "$token" ]; then
  cat >&2 <<MESSAGE
Context Lab refuses to listen on $host without an access token: anyone who can reach
this machine could read every conversation and spend the stored upstream API key.
Either bind this machine only (HOST=127.0.0.1, the default), or set a token of at least
16 characters, e.g. CONTEXT_LAB_TOKEN=\$(openssl rand -hex 24), and list the names clients
use to reach it in CONTEXT_LAB_ALLOWED_HOSTS (e.g. CONTEXT_LAB_ALLOWED_HOSTS=lab.example.com).
MESSAGE
  exit 1
fi
if [ -n "$token" ] && [ "${#token}" -lt 16 ]; then
  echo "Context Lab: CONTEXT_LAB_TOKEN is ${#token} characters; use at least 16 (e.g. \$(openssl rand -hex 24))" >&2
  exit 1
fi
# The app reads the address it listens on from HOST (the Local agents page is offered on loopback only).
export HOST="$host"
if [ "${2:-}" = "--migrate" ]; then bash scripts/prisma.sh migrate; fi
# The bundled server lives in the build's folder (lib/server/bundle.ts); `npm run build` makes it.
server="${NEXT_DIST_DIR:-.next}/context-lab-server.mjs"
if [ "$mode" = dev ]; then
  # Development bundles the server afresh (a second or two): its handlers do not reload on edits, Next's pages do.
  node --import tsx scripts/bundle-server.ts >/dev/null
  export NODE_ENV=development
  exec node "$server" --dev -H "$host" -p "$port"
fi
if [ ! -f "$server" ]; then
  echo "Context Lab: no production build with its server in ${NEXT_DIST_DIR:-.next}: run \`npm run build\` first" >&2
  exit 1
fi
export NODE_ENV=production
exec node "$server" -H "$host" -p "$port"
