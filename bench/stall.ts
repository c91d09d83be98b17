import os from "node:os";
import { PRESETS } from "@/lib/context";
import { createBenchDatabaseFile, percentile } from "./proxy";
import { formatMs, machine, table, writeSection } from "./results";

/**
 * Stalls (RL-ST1): the production server (the app server, its own process, a fresh
 * SQLite file) is sent one heavy request at a time while `/api/health` is
 * asked again 10 ms after each answer; each row is the health checks' latency
 * while that request ran, and the request's own status and time. The target
 * is a health p99 within 100 ms for every case.
 */

const POLL_GAP_MS = 10;
const TARGET_MS = 100;
const BRANCH_MESSAGES = 100_000;
/** The replay limit (lib/api/replay.ts MAX_REPLAY_MESSAGES): the longest branch a replay accepts. */
const REPLAY_MESSAGES = 20_000;

const words = ["the", "booking", "flight", "refund", "passenger", "baggage", "seat", "upgrade", "policy", "reservation", "cancel", "change"];
const sentence = (index: number) => Array.from({ length: 12 + (index % 12) }, (_, word) => words[(index * 7 + word) % words.length]).join(" ");
const chat = (count: number) => Array.from({ length: count }, (_, index) => ({ role: index % 2 === 0 ? "user" : "assistant", content: sentence(index) }));
const jsonl = (count: number) =>
  chat(count)
    .map((message) => JSON.stringify(message))
    .join("\n");

interface HeavyRequest {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
}

interface CaseResult {
  name: string;
  status: number;
  requestMs: number;
  polls: number[];
  /** Health checks that got no 200 (a reset connection, an error). */
  failures: number;
}

type Send = (request: HeavyRequest) => Promise<{ status: number; body: string }>;

/** Runs `request` while health is polled; the polls that started before it was answered count. */
async function measure(name: string, send: Send, request: HeavyRequest | null, idleMs = 2_000): Promise<CaseResult> {
  const polls: number[] = [];
  const failures: string[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      const answer = await send({ method: "GET", path: "/api/health" }).catch((error: unknown) => ({ status: 0, body: String(error) }));
      // A check that failed waited too: its time counts with the others.
      polls.push(performance.now() - started);
      if (answer.status !== 200) failures.push(`${answer.status} ${answer.body.slice(0, 120)}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_GAP_MS));
    }
  })();
  const started = performance.now();
  const answer = request
    ? await send(request)
    : await new Promise<{ status: number; body: string }>((resolve) => setTimeout(() => resolve({ status: 200, body: "" }), idleMs));
  const requestMs = performance.now() - started;
  running = false;
  await probe;
  console.log(`stall: ${name}: ${answer.status} in ${requestMs.toFixed(0)} ms, health p99 ${percentile(polls, 0.99).toFixed(0)} ms`);
  if (answer.status >= 500) console.warn(`stall: ${name} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  if (failures.length > 0) console.warn(`stall: ${failures.length} health checks failed during ${name}, first: ${failures[0]}`);
  return { name, status: answer.status, requestMs, polls, failures: failures.length };
}

export async function benchStall(): Promise<string> {
  const { hasBuild, NO_BUILD, rawRequest, startNextServer } = await import("@/tests/support/next-server");
  if (!hasBuild()) throw new Error(NO_BUILD);
  const store = createBenchDatabaseFile("stall");
  const server = await startNextServer({ databaseUrl: store.url });
  const send: Send = ({ method, path, body, contentType }) =>
    rawRequest(server.url, { method, path, body, headers: body === undefined ? {} : { "content-type": contentType ?? "application/json" } });
  const post = async (path: string, body: string, contentType = "application/json") => {
    const answer = await send({ method: "POST", path, body, contentType });
    if (answer.status !== 201) throw new Error(`${path} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    return JSON.parse(answer.body) as { branch?: { id: string }; conversations?: { branchId?: string; branch?: { id: string } }[] };
  };
  const importedBranch = async (title: string, count: number) => {
    const answer = await post(`/api/conversations/import?title=${title}`, jsonl(count), "application/x-ndjson");
    const first = answer.conversations?.[0] as Record<string, unknown> | undefined;
    const branchId = (first?.branchId as string | undefined) ?? (first?.branch as { id: string } | undefined)?.id;
    if (!branchId) throw new Error(`the import answered no branch: ${JSON.stringify(first).slice(0, 300)}`);
    return branchId;
  };
  const results: CaseResult[] = [];
  let loadBefore = "";
  try {
    // Warm: the routes compile and the token ranks load once; not what is measured.
    await post("/api/conversations/import?title=warm", JSON.stringify([{ role: "user", content: "warm" }]));
    const target = await post("/api/conversations", JSON.stringify({ title: "append target", messages: [{ role: "user", content: "hi" }] }));
    const targetBranch = target.branch?.id ?? "";
    const longBranch = await importedBranch("long", BRANCH_MESSAGES);
    const replayBranch = await importedBranch("replay", REPLAY_MESSAGES);
    const toolArguments = JSON.stringify({ data: "x".repeat(15 * 1024 * 1024) });
    const policy = { id: "navigator", label: "Navigator", policy: PRESETS.navigator.policy };

    loadBefore = os.loadavg()[0].toFixed(1);
    results.push(await measure("idle (no heavy request, 2 s)", send, null));
    results.push(
      await measure("1M-character string in a body (create)", send, {
        method: "POST",
        path: "/api/conversations",
        body: JSON.stringify({ title: "long string", messages: [{ role: "user", content: "y".repeat(1_000_000) }] }),
      }),
    );
    results.push(
      await measure("10,000-message append", send, {
        method: "POST",
        path: `/api/branches/${targetBranch}/messages`,
        body: JSON.stringify({ messages: chat(10_000) }),
      }),
    );
    results.push(
      await measure("19M-character import (19 messages of 1M)", send, {
        method: "POST",
        path: "/api/conversations/import?title=huge",
        body: Array.from({ length: 19 }, (_, index) => JSON.stringify({ role: index % 2 === 0 ? "user" : "assistant", content: "z".repeat(1_000_000) })).join(
          "\n",
        ),
        contentType: "application/x-ndjson",
      }),
    );
    results.push(
      await measure("15 MB tool-argument import", send, {
        method: "POST",
        path: "/api/conversations/import?title=arguments",
        body: JSON.stringify([
          { role: "user", content: "go" },
          { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "write", arguments: toolArguments } }] },
          { role: "tool", tool_call_id: "call_1", content: "ok" },
        ]),
      }),
    );
    results.push(
      await measure("2.5M-element array, refused (create)", send, {
        method: "POST",
        path: "/api/conversations",
        body: `{"title":"array","messages":[${new Array(2_500_000).fill("0").join(",")}]}`,
      }),
    );
    results.push(await measure("prompt, 100k-message branch", send, { method: "GET", path: `/api/branches/${longBranch}/prompt` }));
    results.push(await measure("export (OpenAI JSON), 100k-message branch", send, { method: "GET", path: `/api/branches/${longBranch}/export?format=openai` }));
    results.push(
      await measure("compact (forced), 100k-message branch", send, {
        method: "POST",
        path: `/api/branches/${longBranch}/compact`,
        body: JSON.stringify({ force: true }),
      }),
    );
    results.push(
      await measure(`replay, ${REPLAY_MESSAGES.toLocaleString("en")}-message branch (the limit)`, send, {
        method: "POST",
        path: `/api/branches/${replayBranch}/replay`,
        body: JSON.stringify({ policies: [policy], prices: null }),
      }),
    );
    results.push(
      await measure("replay, 100k-message branch (refused: past the limit)", send, {
        method: "POST",
        path: `/api/branches/${longBranch}/replay`,
        body: JSON.stringify({ policies: [policy], prices: null }),
      }),
    );
  } finally {
    await server.stop();
  }

  const rows = results.map((result) => [
    result.name,
    result.polls.length,
    result.failures,
    formatMs(percentile(result.polls, 0.5)),
    formatMs(percentile(result.polls, 0.99)),
    formatMs(Math.max(...result.polls)),
    result.status === 0 ? "connection reset" : result.status,
    formatMs(result.requestMs),
    percentile(result.polls, 0.99) <= TARGET_MS ? "yes" : "no",
  ]);
  const markdown = [
    "## Stalls: /api/health while one heavy request runs",
    "",
    `Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}. The production server (the app server, \`npm start\`, its own process) on a fresh SQLite file; one heavy request at a time while \`/api/health\` is asked again ${POLL_GAP_MS} ms after each answer (the checks that ran while the request was open count, a failed one with the time it waited). Target (RL-ST1): health p99 within ${TARGET_MS} ms in every case. The long branch holds ${BRANCH_MESSAGES.toLocaleString("en")} short chat messages (imported before the cases); the replay runs raw and the Navigator preset. Load average (1 min) ${loadBefore} when the cases began, ${os.loadavg()[0].toFixed(1)} when they ended: the idle row is the floor; a machine shared with other jobs makes every row noisy. A case shorter than a few health intervals has only one or two checks, so its p99 is its worst check: the time the server was held.`,
    "",
    table(
      [
        "case",
        "health checks",
        "failed checks",
        "health p50 (ms)",
        "health p99 (ms)",
        "health max (ms)",
        "request status",
        "request time (ms)",
        `p99 ≤ ${TARGET_MS} ms`,
      ],
      rows,
    ),
  ].join("\n");
  writeSection("stall", markdown);
  return markdown;
}
