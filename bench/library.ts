import fs from "node:fs";
import os from "node:os";
import type { Message } from "@/lib/context";
import { loadTrajectories } from "./corpus";
import { allowServerOnly, createBenchDatabaseFile, createBenchSchema } from "./proxy";
import { formatMs, machine, median, table, writeSection } from "./results";

const CONVERSATIONS = 10_000;
/** Messages of each conversation: the first turns of a real trajectory (system prompt included). */
const MESSAGES_EACH = 8;
const FAILED_EVERY = 100;
const REPEATS = 20;

interface Case {
  label: string;
  url: string;
}

const CASES: Case[] = [
  { label: "first page, newest first (the home page as it opens)", url: "/api/conversations" },
  { label: "search a word in nearly every conversation (`reservation`)", url: "/api/conversations?q=reservation" },
  { label: "search a title (`task 37 pass 3`)", url: "/api/conversations?q=task%2037%20pass%203" },
  { label: "search two words in messages, the last a prefix (`baggage cancel`)", url: "/api/conversations?q=baggage%20cancel" },
  { label: "search while typing a common prefix (`res`)", url: "/api/conversations?q=res" },
  { label: "filter: failed calls", url: "/api/conversations?failed=true" },
  { label: "filter: imports, sorted by tokens", url: "/api/conversations?source=import&sort=tokens" },
  { label: "last page (offset 9,950)", url: "/api/conversations?offset=9950" },
];

interface Row {
  database: string;
  label: string;
  total: number;
  wall: number;
  cpu: number;
  operations: number;
}

/** Seeds the library through the app's own write path (createConversation indexes as it writes) and times each query through the route handler. */
async function measure(url: string, database: string): Promise<{ rows: Row[]; seedMs: number }> {
  const { createDatabase, createConversation, createExchange, updateExchangeById } = await import("@/lib/db");
  const { useDatabaseForTests } = await import("@/lib/api/database");
  const { GET } = await import("@/app/api/conversations/route");
  const db = createDatabase(url);
  let operations = 0;
  const counted = db.$extends({
    query: {
      $allModels: {
        $allOperations({ args, query }) {
          operations += 1;
          return query(args);
        },
      },
    },
  });
  const trajectories = loadTrajectories();
  const seedStarted = performance.now();
  for (let index = 0; index < CONVERSATIONS; index += 1) {
    const trajectory = trajectories[index % trajectories.length];
    const messages = (trajectory.traj as Message[])
      .slice(0, MESSAGES_EACH)
      .map((message) => ({ message, tokens: Math.ceil((message.content ?? "").length / 4) }));
    const pass = Math.floor(index / trajectories.length);
    const { branch } = await createConversation(db, { title: `airline task ${trajectory.task_id} pass ${pass}`, source: "import:tau-bench", messages });
    if (index % FAILED_EVERY === 0) {
      const exchange = await createExchange(db, branch.id, { request: { messages: [] } });
      await updateExchangeById(db, exchange.id, { status: 500, error: { type: "server_error" } });
    }
    if ((index + 1) % 2_000 === 0) console.log(`library: ${database} ${index + 1} conversations stored`);
  }
  const seedMs = performance.now() - seedStarted;
  useDatabaseForTests(counted as unknown as typeof db);
  const rows: Row[] = [];
  for (const { label, url: path } of CASES) {
    const call = async () => (await GET(new Request(`http://127.0.0.1${path}`), { params: Promise.resolve({}) })).json() as Promise<{ total: number }>;
    await call();
    const walls: number[] = [];
    const cpus: number[] = [];
    let total = 0;
    operations = 0;
    for (let repeat = 0; repeat < REPEATS; repeat += 1) {
      (globalThis as { gc?: () => void }).gc?.();
      const cpu = process.cpuUsage();
      const started = performance.now();
      total = (await call()).total;
      walls.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      cpus.push((used.user + used.system) / 1_000);
    }
    rows.push({ database, label, total, wall: median(walls), cpu: median(cpus), operations: operations / REPEATS });
  }
  await db.$disconnect();
  return { rows, seedMs };
}

/** The home page's library with 10,000 conversations: each query through `GET /api/conversations`, the function the page calls. */
export async function benchLibrary(): Promise<void> {
  allowServerOnly();
  const load = os.loadavg()[0];
  const { url, folder } = createBenchDatabaseFile("library");
  const results: Row[] = [];
  const seeding: string[] = [];
  try {
    const sqlite = await measure(url, "SQLite");
    results.push(...sqlite.rows);
    seeding.push(`SQLite ${formatMs(sqlite.seedMs / CONVERSATIONS)} ms`);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
  const postgres = await createBenchSchema("library");
  if (postgres) {
    try {
      const measured = await measure(postgres.url, "PostgreSQL");
      results.push(...measured.rows);
      seeding.push(`PostgreSQL ${formatMs(measured.seedMs / CONVERSATIONS)} ms`);
    } finally {
      await postgres.drop();
    }
  }
  const markdown = [
    "## Library: the home page with 10,000 conversations",
    "",
    `Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}, load average ${load.toFixed(1)} at the start. ${CONVERSATIONS.toLocaleString("en")} conversations of ${MESSAGES_EACH} real tau-bench messages each (MIT; ${(CONVERSATIONS * MESSAGES_EACH).toLocaleString("en")} messages), stored through \`createConversation\`, which writes the search words and counts as it goes (per conversation: ${seeding.join(", ")}); one in ${FAILED_EVERY} has a failed call. Each query goes through \`GET /api/conversations\` (the home page calls the same \`getConversationPage\`), 50 conversations a page; medians of ${REPEATS} after one warm-up. Queries: Prisma operations per request, counted.`,
    "",
    table(
      ["database", "request", "matching", "wall ms", "CPU ms", "queries"],
      results.map((row) => [row.database, row.label, row.total.toLocaleString("en"), formatMs(row.wall), formatMs(row.cpu), row.operations]),
    ),
  ].join("\n");
  console.log(markdown);
  writeSection("library", markdown);
}
