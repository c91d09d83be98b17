/**
 * Gemini CLI's `Content[]` history: `/chat share file.json` writes it as is,
 * `/chat save <tag>` as `checkpoint-<tag>.json` (`{history, authType}`, or the
 * bare array in older versions). The model's functionCall parts carry no id
 * (the CLI gives the call one, and writes it on the functionResponse only), so
 * each call takes the id of the response at the same position in the next
 * turn. Read by the Gemini reader.
 */
import { isRecord, type JsonPath } from "../../issues";
import type { ImportContext, ImportPlace } from "../../registry";
import { readWithScope, type ConversationDraft } from "../../requests";
import type { Message } from "@/lib/context/messages";
import { readGeminiContent } from "@/lib/formats";

/** The first user turn the CLI writes to set up the chat (`getEnvironmentContext`). */
const SESSION_CONTEXT = "This is the Gemini CLI. We are setting up the context for our chat.";
/** The CLI's call ids: `read_file-1762097616851-5534d1ec395cf` (2025), `read_file__read_file_1775000000000_0` (2026). */
const CLI_CALL_ID = /^[\w.-]+(?:-\d{13}-[0-9a-f]+|__[\w.-]+)$/;

function isContent(value: unknown): value is { role?: string; parts: unknown[] } {
  return isRecord(value) && Array.isArray(value.parts) && (value.role === undefined || value.role === "user" || value.role === "model");
}

function partsWith(content: { parts: unknown[] }, field: string): Record<string, unknown>[] {
  return content.parts.flatMap((part) => (isRecord(part) && isRecord(part[field]) ? [part[field] as Record<string, unknown>] : []));
}

/** The history array of a share export or a checkpoint, and where it sits; undefined for anything else. */
export function cliHistoryOf(value: unknown): { history: unknown[]; path: JsonPath } | undefined {
  if (isRecord(value) && Array.isArray(value.history) && Object.keys(value).every((key) => key === "history" || key === "authType"))
    return value.history.every(isContent) ? { history: value.history, path: ["history"] } : undefined;
  if (!Array.isArray(value) || value.length === 0 || !value.every(isContent)) return undefined;
  const marked = value.some(
    (content) =>
      partsWith(content, "functionResponse").some((response) => typeof response.id === "string" && CLI_CALL_ID.test(response.id)) ||
      content.parts.some((part) => isRecord(part) && typeof part.text === "string" && part.text.includes(SESSION_CONTEXT)),
  );
  return marked ? { history: value, path: [] } : undefined;
}

export function convertCliHistory(value: unknown, place: ImportPlace, context: ImportContext): ConversationDraft {
  const found = cliHistoryOf(value) ?? { history: [], path: [] };
  const path = [...place.path, ...found.path];
  const scope = context.scope(path, place.conversationIndex);
  const { contents, paired, first } = withCallIds(found.history as { role?: string; parts: unknown[] }[]);
  const starts: number[] = [];
  const messages = readWithScope(scope, "gemini", path, (conversion) => {
    const read: Message[] = [];
    const pending: { id: string; name: string }[] = [];
    contents.forEach((content, index) => {
      starts.push(read.length);
      readGeminiContent(content, [index], index, conversion, read, pending);
    });
    return read;
  });
  if (paired > 0)
    scope.warn(
      "paired-by-position",
      `${paired} function calls carry no id (Gemini CLI writes it on the response only): each took the id of the functionResponse at the same position in the next turn`,
      { messageIndex: starts[first ?? 0], path: [...path, first ?? 0] },
    );
  const cwd = contents
    .flatMap((content) => content.parts)
    .map((part) => (isRecord(part) && typeof part.text === "string" ? /I'm currently working in the directory: (.+)/.exec(part.text)?.[1] : undefined))
    .find((found) => found !== undefined);
  const draft: ConversationDraft = {
    format: "gemini-cli",
    messages,
    warnings: scope.warnings,
    session: cwd === undefined ? { agent: "gemini-cli" } : { agent: "gemini-cli", cwd: cwd.trim() },
  };
  if (isRecord(value) && value.authType !== undefined) draft.source = { authType: value.authType };
  const title = contents
    .filter((content) => content.role !== "model")
    .flatMap((content) => content.parts)
    .find((part) => isRecord(part) && typeof part.text === "string" && part.text.trim() !== "" && !part.text.includes(SESSION_CONTEXT));
  if (isRecord(title)) draft.title = shortTitle(String(title.text));
  return draft;
}

function shortTitle(text: string): string {
  const line = text.trim().split("\n")[0].replace(/\s+/g, " ");
  return line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line;
}

/** The history with each id-less functionCall given the id of the functionResponse at its position in the next turn. */
function withCallIds(history: readonly { role?: string; parts: unknown[] }[]): {
  contents: { role?: string; parts: unknown[] }[];
  paired: number;
  first?: number;
} {
  let paired = 0;
  let first: number | undefined;
  const contents = history.map((content, index) => {
    const next = history[index + 1];
    if (content.role !== "model" || next === undefined || next.role === "model") return content;
    const responses = partsWith(next, "functionResponse");
    let position = 0;
    const parts = content.parts.map((part) => {
      if (!isRecord(part) || !isRecord(part.functionCall)) return part;
      const response = responses[position];
      position += 1;
      if (part.functionCall.id !== undefined || typeof response?.id !== "string") return part;
      paired += 1;
      first ??= index;
      return { ...part, functionCall: { ...part.functionCall, id: response.id } };
    });
    return { ...content, parts };
  });
  return { contents, paired, first };
}
