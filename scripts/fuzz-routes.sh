#!/usr/bin/env bash
# BD11, the larger run: the route fuzz suite (tests/fuzz) with more requests per route handler
# (FUZZ_RUNS, default 5,000) and malformed paths (FUZZ_PATH_RUNS, default 5,000), on SQLite and
# PostgreSQL, then a table of what every handler answered. FUZZ_SEED picks another seed (printed,
# so a finding can be run again). The suite itself (npm test) runs 500 of each.
set -euo pipefail
cd "$(dirname "$0")/.."
export FUZZ_RUNS="${FUZZ_RUNS:-5000}"
export FUZZ_PATH_RUNS="${FUZZ_PATH_RUNS:-5000}"
export FUZZ_SEED="${FUZZ_SEED:-$(( (RANDOM << 15) | RANDOM ))}"
report="${FUZZ_REPORT:-$(mktemp -t context-lab-fuzz-XXXXXX.jsonl)}"
: > "$report"
echo "fuzz: ${FUZZ_RUNS} requests per handler, ${FUZZ_PATH_RUNS} paths, seed ${FUZZ_SEED}; statuses in ${report}"
status=0
FUZZ_REPORT="$report" node_modules/.bin/vitest run tests/fuzz --project node --testTimeout 3600000 || status=$?
node --input-type=module -e '
import fs from "node:fs";
const runs = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
const byRoute = new Map();
for (const { provider, tally } of runs)
  for (const [key, statuses] of Object.entries(tally)) {
    const route = key.slice(provider.length + 1);
    byRoute.set(route, { ...byRoute.get(route), [provider]: statuses });
  }
const cell = (statuses) => {
  if (!statuses) return "—";
  const count = (test) => Object.entries(statuses).filter(([status]) => test(Number(status))).reduce((sum, [, n]) => sum + n, 0);
  return `${count(() => true)} (${count((s) => s < 400)} / ${count((s) => s >= 400 && s < 500)} / ${count((s) => s >= 500)})`;
};
console.log("| route | SQLite (2xx / 4xx / 5xx) | PostgreSQL (2xx / 4xx / 5xx) |\n| --- | --- | --- |");
for (const [route, providers] of [...byRoute].sort()) console.log(`| ${route} | ${cell(providers.sqlite)} | ${cell(providers.postgres)} |`);
' "$report"
exit "$status"
