import fs from "node:fs";
import type { Message } from "@/lib/context";
import { buildConversation } from "./corpus";
import { allowServerOnly, createBenchDatabaseFile, createBenchSchema, percentile } from "./proxy";
import { formatMs, machine, median, table, writeSection } from "./results";
import { countingClient } from "@/tests/support/counting-client";

/**
 * lib/memory's services on long branches, SQLite and PostgreSQL side by side:
 * what one `recordMessages` call costs (the proxy makes two per proxied call:
 * the request's new turns, then the reply) and what building the next request costs,
 * on branches of 100, 1,000 and 10,000 real tau-bench messages.
 */

const SIZES = [100, 1_000, 10_000];
/** recordMessages calls measured per branch: the corpus's next messages, cut as the proxy records them. */
const MEASURED_CALLS = 60;
const WARMUP_CALLS = 100;
/** Calls recorded on a counting client after the timed ones. */
const COUNTED_CALLS = 20;
const PROMPTS = 10;
/** The branch is seeded through recordMessages in batches of about this many messages (one compaction each). */
const SEED_BATCH = 20;
/** Copilot defaults (summary threshold 10), with tool results over 1,000 characters stored as artifacts so the branch holds many. */
const SETTINGS = { artifactThreshold: 1_000 };

/** Corpus messages as the engine's type has them (the fixture writes absent fields as null). */
function normalise(messages: readonly Message[]): Message[] {
  return messages.map((raw) => {
    const message: Message = { role: raw.role, content: raw.content ?? null };
    if (raw.tool_calls?.length) message.tool_calls = raw.tool_calls;
    if (raw.tool_call_id) message.tool_call_id = raw.tool_call_id;
    if (raw.name) message.name = raw.name;
    return message;
  });
}

/** Messages cut as the proxy records them: a request's new turns (everything up to the next assistant message), then each reply alone. */
function callsOf(messages: readonly Message[]): Message[][] {
  const calls: Message[][] = [];
  for (const message of messages) {
    const last = calls.at(-1);
    if (message.role === "assistant" || !last || last[0].role === "assistant") calls.push([message]);
    else last.push(message);
  }
  return calls;
}

/** Batches of about `size` messages, each ending where a call ends. */
function batchesOf(calls: Message[][], size: number): Message[][] {
  const batches: Message[][] = [[]];
  for (const call of calls) {
    if (batches[batches.length - 1].length >= size) batches.push([]);
    batches[batches.length - 1].push(...call);
  }
  return batches.filter((batch) => batch.length > 0);
}

interface Figures {
  size: number;
  seedMs: number;
  /** Wall time per call, without and with a compaction. */
  plain: number[];
  compacting: number[];
  cpu: number[];
  operations: number[];
  rows: number[];
  promptWall: number[];
}

async function measureProvider(url: string, label: string): Promise<Figures[]> {
  const { createDatabase, createConversation } = await import("@/lib/db");
  const { recordMessages } = await import("@/lib/memory");
  const { prepareNextRequest } = await import("@/lib/request/server");
  const db = createDatabase(url);
  const counted = countingClient(createDatabase(url));
  const results: Figures[] = [];
  try {
    // Warm-up: the first calls compile the code paths, on a short branch of their own.
    const warm = await createConversation(db, { title: "warm-up", source: "recorder", settings: SETTINGS });
    for (const call of callsOf(normalise(buildConversation(400))).slice(0, WARMUP_CALLS)) await recordMessages(db, warm.branch.id, call);

    for (const size of SIZES) {
      const corpus = normalise(buildConversation(size + 2_000));
      const calls = callsOf(corpus);
      // Seed exactly `size` messages' worth of whole calls; the calls after them are measured.
      let seeded = 0;
      let next = 0;
      while (next < calls.length && seeded + calls[next].length <= size) seeded += calls[next++].length;
      const { branch } = await createConversation(db, { title: `memory-${size}`, source: "recorder", settings: SETTINGS });
      const seedStarted = performance.now();
      for (const batch of batchesOf(calls.slice(0, next), SEED_BATCH)) await recordMessages(db, branch.id, batch);
      const seedMs = performance.now() - seedStarted;
      console.log(`memory: ${label} ${size} seeded (${seeded} messages) in ${formatMs(seedMs)} ms`);

      const figures: Figures = { size, seedMs, plain: [], compacting: [], cpu: [], operations: [], rows: [], promptWall: [] };
      const measured = calls.slice(next, next + MEASURED_CALLS);
      for (const call of measured) {
        (globalThis as { gc?: () => void }).gc?.();
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        const result = await recordMessages(db, branch.id, call);
        const wall = performance.now() - started;
        const cpu = process.cpuUsage(cpuBefore);
        figures.cpu.push((cpu.user + cpu.system) / 1000);
        (result.compaction ? figures.compacting : figures.plain).push(wall);
      }
      // Queries and rows: more calls on a counting client (its extension costs time, so they are not timed).
      for (const call of calls.slice(next + MEASURED_CALLS, next + MEASURED_CALLS + COUNTED_CALLS)) {
        const before = counted.count();
        await recordMessages(counted.db, branch.id, call);
        const after = counted.count();
        figures.operations.push(after.operations - before.operations);
        figures.rows.push(after.rows - before.rows);
      }
      const userTurn = "Can you check my reservation and the baggage allowance again?";
      for (let index = 0; index < PROMPTS; index += 1) {
        const started = performance.now();
        await prepareNextRequest(db, branch.id, { current: { role: "user", content: userTurn } });
        figures.promptWall.push(performance.now() - started);
      }
      results.push(figures);
      console.log(`memory: ${label} ${size}: recordMessages p50 ${formatMs(median([...figures.plain, ...figures.compacting]))} ms`);
    }
  } finally {
    await db.$disconnect();
    await counted.db.$disconnect();
  }
  return results;
}

export async function benchMemory(): Promise<string> {
  allowServerOnly();
  const sqlite = createBenchDatabaseFile("memory");
  const bySqlite = await measureProvider(sqlite.url, "SQLite");
  fs.rmSync(sqlite.folder, { recursive: true, force: true });
  const postgres = await createBenchSchema("memory");
  let byPostgres: Figures[] | null = null;
  if (postgres) {
    try {
      byPostgres = await measureProvider(postgres.url, "PostgreSQL");
    } finally {
      await postgres.drop();
    }
  }

  const spread = (values: number[]) => (values.length > 0 ? `${median(values)} (${Math.min(...values)}–${Math.max(...values)})` : "");
  const row = (name: string, figures: Figures) => {
    const all = [...figures.plain, ...figures.compacting];
    return [
      figures.size.toLocaleString("en-US"),
      name,
      formatMs(median(all)),
      formatMs(percentile(all, 0.9)),
      figures.plain.length > 0 ? formatMs(median(figures.plain)) : "",
      figures.compacting.length > 0 ? `${formatMs(median(figures.compacting))} (${figures.compacting.length})` : "",
      formatMs(median(figures.cpu)),
      spread(figures.operations),
      spread(figures.rows),
      formatMs(median(figures.promptWall)),
    ];
  };
  const rows = SIZES.flatMap((size, index) => [
    row("SQLite", bySqlite[index]),
    byPostgres
      ? row("PostgreSQL", byPostgres[index])
      : [size.toLocaleString("en-US"), "PostgreSQL", "not measured: PostgreSQL was not running", "", "", "", "", "", "", ""],
  ]);
  const markdown = [
    "## Memory: recordMessages and the next request on long branches",
    "",
    `Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}. Each branch holds real tau-bench airline messages (bench/corpus.ts) recorded through lib/memory's \`recordMessages\` in batches of about ${SEED_BATCH} messages (a summary and a checkpoint for nearly every batch), with copilot settings (summary threshold 10) and tool results over ${SETTINGS.artifactThreshold.toLocaleString("en-US")} characters stored as artifacts. Then the corpus's next ${MEASURED_CALLS} calls are recorded one by one as the proxy records them (a request's new turns, then the reply alone) and timed, compactions included as they fall due: wall time per call (all, then without and with a compaction, with how many compacted) and this process's CPU time (all threads). Queries and rows: Prisma model operations per call and the rows they returned, median (min–max) over ${COUNTED_CALLS} more calls (transaction statements not counted). next request: \`prepareNextRequest\` with a new user turn, writing nothing, median of ${PROMPTS}.`,
    "",
    table(
      [
        "messages",
        "database",
        "recordMessages p50 ms",
        "p90 ms",
        "without compaction p50 ms",
        "with compaction p50 ms (calls)",
        "CPU p50 ms",
        "queries per call",
        "rows per call",
        "next request p50 ms",
      ],
      rows,
    ),
  ].join("\n");
  writeSection("memory", markdown);
  return markdown;
}
