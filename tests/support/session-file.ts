/** Session files in tests: written and read through the real route handlers, and their lines taken apart. */
import * as exportRoute from "@/app/api/sessions/[conversationId]/route";
import * as importRoute from "@/app/api/sessions/route";
import { exportSession, type Database } from "@/lib/db";
import { decodeRequest } from "@/lib/db/request-delta";

/** The text `GET /api/sessions/[conversationId]` streams, and its status and headers. */
export async function exportSessionText(conversationId: string, query = ""): Promise<{ status: number; text: string; response: Response }> {
  const request = new Request(`http://localhost/api/sessions/${encodeURIComponent(conversationId)}${query}`);
  const response = await exportRoute.GET(request, { params: Promise.resolve({ conversationId }) });
  return { status: response.status, text: await response.text(), response };
}

/** `POST /api/sessions` with a file's text, sent as JSON lines like the page sends a file. */
export async function importSessionText(text: string): Promise<{ status: number; body: any }> {
  const request = new Request("http://localhost/api/sessions", { method: "POST", body: text, headers: { "content-type": "application/x-ndjson" } });
  const response = await importRoute.POST(request);
  return { status: response.status, body: await response.json() };
}

/** A streamed session file's lines, parsed. */
export function sessionLinesOf(text: string): any[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

/** The lines back as a file's text. */
export function sessionText(lines: readonly unknown[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

/** The rows of one table, in file order (the same objects as in `lines`, so changing one changes the file). */
export function rowsOfTable(lines: readonly any[], table: string): any[] {
  return lines.filter((line) => line.table === table).map((line) => line.row);
}

/**
 * A view of a streamed file's lines shaped like a version 1 file (`file.messages[2]`), whose rows are the lines'
 * own objects: a change made through it is in `sessionText(lines)`.
 */
export function sessionView(lines: readonly any[]): Record<string, any> {
  const tables = ["branches", "messages", "summaries", "checkpoints", "offloaded", "artifacts", "exchanges", "policies"];
  return { conversation: rowsOfTable(lines, "conversation")[0], ...Object.fromEntries(tables.map((table) => [table, rowsOfTable(lines, table)])) };
}

/** The requests of a streamed file's exchanges, each decoded against its branch's request before it (SE-5). */
export function decodedRequests(lines: readonly any[]): unknown[] {
  const last = new Map<string, Record<string, unknown>>();
  return rowsOfTable(lines, "exchanges").map((exchange) => {
    const stored = JSON.parse(exchange.request);
    const request = exchange.requestBaseId === null ? stored : decodeRequest(last.get(exchange.branchId), stored);
    last.set(exchange.branchId, request);
    return request;
  });
}

/** `exportSession`'s lines, parsed. */
export async function exportedLines(db: Database, conversationId: string): Promise<any[]> {
  let text = "";
  for await (const line of (await exportSession(db, conversationId)).lines) text += line;
  return sessionLinesOf(text);
}
