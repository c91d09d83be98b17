import fs from "node:fs";
import { allowServerOnly, createBenchDatabaseFile } from "./proxy";
import { formatMb, formatMs, machine, table, writeSection } from "./results";

/**
 * The session file of a 200-call agent (SE-5): each call's request adds a
 * tool result of about 6 KB to a growing history, stored as the recorder
 * stores it (deltas, D6), with a sent body after the pipeline for every call.
 * Timed in one process on SQLite: the export taken line by line through the
 * route handler, and its import into a fresh database through the other.
 */

const CALLS = 200;
const RESULT_CHARACTERS = 6_000;

export async function benchSessionFile(): Promise<void> {
  allowServerOnly();
  const source = createBenchDatabaseFile("session-source");
  const target = createBenchDatabaseFile("session-target");
  const { createConversation, createDatabase, createExchange, updateExchangeById } = await import("@/lib/db");
  const { useDatabaseForTests } = await import("@/lib/api/database");
  const exportRoute = await import("@/app/api/sessions/[conversationId]/route");
  const importRoute = await import("@/app/api/sessions/route");
  const sourceDb = createDatabase(source.url);
  const targetDb = createDatabase(target.url);
  try {
    const { conversation, branch } = await createConversation(sourceDb, { title: "agent", source: "proxy", settings: {} });
    const history: { role: string; content: string }[] = [{ role: "system", content: "You are a coding agent. ".repeat(200) }];
    let previous: { id: string; request: unknown } | undefined;
    let whole = 0;
    for (let call = 0; call < CALLS; call += 1) {
      history.push({ role: "user", content: `result ${call}: ${"x".repeat(RESULT_CHARACTERS)}` });
      const request = { model: "gpt-4o", messages: structuredClone(history), tools: [{ type: "function", function: { name: "read_file" } }] };
      whole += JSON.stringify(request).length;
      const exchange = await createExchange(sourceDb, branch.id, { request, previous, sent: { ...request, max_tokens: 4_000 } });
      await updateExchangeById(sourceDb, exchange.id, { response: { choices: [{ message: { content: `answer ${call}` } }] }, status: 200, durationMs: 900 });
      previous = { id: exchange.id, request };
      history.push({ role: "assistant", content: `answer ${call}` });
    }

    useDatabaseForTests(sourceDb);
    let started = performance.now();
    const response = await exportRoute.GET(new Request(`http://localhost/api/sessions/${conversation.id}`), {
      params: Promise.resolve({ conversationId: conversation.id }),
    });
    const text = await response.text();
    const exportMs = performance.now() - started;
    const bytes = Buffer.byteLength(text);

    useDatabaseForTests(targetDb);
    started = performance.now();
    const imported = await importRoute.POST(
      new Request("http://localhost/api/sessions", { method: "POST", body: text, headers: { "content-type": "application/x-ndjson" } }),
    );
    const importMs = performance.now() - started;
    if (imported.status !== 201) throw new Error(`the import failed: ${imported.status} ${await imported.text()}`);

    writeSection(
      "session-file",
      `## Session file of a 200-call agent

Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}, in one process on SQLite: ${CALLS} calls of one growing conversation, each adding a ${RESULT_CHARACTERS.toLocaleString("en-US")}-character tool result, stored as the recorder stores them (requests as deltas), each with a sent body; the export read whole through \`GET /api/sessions/[id]\` (streamed, requests and sent bodies as deltas, SE5), then imported into a fresh database through \`POST /api/sessions\` (read line by line).

${table(
  ["calls", "requests whole MB", "session file MB", "export ms", "import ms"],
  [[CALLS, formatMb(whole), formatMb(bytes), formatMs(exportMs), formatMs(importMs)]],
)}`,
    );
    console.log(`session-file: ${formatMb(bytes)} MB, export ${formatMs(exportMs)} ms, import ${formatMs(importMs)} ms`);
  } finally {
    await sourceDb.$disconnect();
    await targetDb.$disconnect();
    fs.rmSync(source.folder, { recursive: true, force: true });
    fs.rmSync(target.folder, { recursive: true, force: true });
  }
}
