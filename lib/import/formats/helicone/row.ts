/**
 * One Helicone request row → a logged call: its request body (OpenAI chat,
 * Anthropic Messages, Responses or Gemini, told by shape) and the reply in
 * its response body, with the row's times, latency, model, usage and ids as
 * facts. Rows spell fields `request_body` or `request: {body}`.
 */
import type { Message, ToolDefinition } from "@/lib/context/messages";
import {
  type CallFacts,
  FormatError,
  type ReadResult,
  type WireFormat,
  isoTime,
  readAnthropicResponse,
  readChatResponse,
  readGeminiResponse,
  readReportedUsage,
  readResponsesOutput,
} from "@/lib/formats";
import { detectDialect } from "../../detect";
import { formatPath, isRecord, type JsonPath, type MessageScope } from "../../issues";
import { readRequestInScope } from "../../requests";
import type { LoggedCall } from "../threads";

export interface RowCall extends LoggedCall {
  row: Record<string, unknown>;
  tools?: ToolDefinition[];
}

/** `request_<field>` or `request.<field>` (and the same for `response`). */
export function fieldOf(row: Record<string, unknown>, side: "request" | "response", field: string): unknown {
  const flat = row[`${side}_${field}`];
  if (flat !== undefined && flat !== null) return flat;
  const nested = row[side];
  return isRecord(nested) ? nested[field] : undefined;
}

function bodyOf(row: Record<string, unknown>, side: "request" | "response", path: JsonPath): { body: unknown; path: JsonPath } {
  const flat = `${side}_body`;
  const at: JsonPath = flat in row ? [...path, flat] : [...path, side, "body"];
  const body = fieldOf(row, side, "body");
  if (typeof body !== "string") return { body, path: at };
  try {
    return { body: JSON.parse(body), path: at };
  } catch {
    return { body, path: at };
  }
}

function requestFormat(body: Record<string, unknown>): WireFormat | undefined {
  if (Array.isArray(body.messages)) return detectDialect(body.messages, body) === "anthropic" ? "anthropic" : "openai-chat";
  if (body.input !== undefined) return "openai-responses";
  if (Array.isArray(body.contents)) return "gemini";
  return undefined;
}

const responseReaders: [test: (body: Record<string, unknown>) => boolean, read: (body: unknown, options: { path: JsonPath }) => ReadResult][] = [
  [(body) => Array.isArray(body.choices), readChatResponse],
  [(body) => Array.isArray(body.content), readAnthropicResponse],
  [(body) => Array.isArray(body.output), readResponsesOutput],
  [(body) => Array.isArray(body.candidates), readGeminiResponse],
];

export function readRow(row: Record<string, unknown>, path: JsonPath, scope: MessageScope): RowCall {
  const id = String(fieldOf(row, "request", "id") ?? "");
  const call: RowCall = {
    row,
    input: [],
    output: [],
    warnings: scope.warnings,
    answer: {},
    label: id === "" ? `the row at ${formatPath(path) || "the top"}` : `request ${id}`,
    path,
  };
  const request = bodyOf(row, "request", path);
  const format = isRecord(request.body) ? requestFormat(request.body) : undefined;
  if (!isRecord(request.body) || format === undefined) {
    const missing = request.body === undefined || (isRecord(request.body) && Object.keys(request.body).length === 0);
    scope.failAt(
      request.path,
      missing
        ? "the row holds no request body: export with the bodies (--include-body, or fetch signed_body_url)"
        : "the request body is neither OpenAI chat / Responses, Anthropic Messages nor Gemini: it has no messages, input or contents",
    );
    return call;
  }
  const read = readRequestInScope(scope, format, request.body, request.path);
  call.input = read?.messages ?? [];
  if (read?.tools !== undefined) call.tools = read.tools;
  call.output = readReply(row, path, scope, call.input.length);
  const sent = isoTime(fieldOf(row, "request", "created_at"));
  if (sent !== undefined) call.sent = { at: sent };
  call.answer = answerFacts(row, bodyOf(row, "response", path).body);
  return call;
}

function readReply(row: Record<string, unknown>, path: JsonPath, scope: MessageScope, offset: number): Message[] {
  const response = bodyOf(row, "response", path);
  const body = response.body;
  const reader = isRecord(body) ? responseReaders.find(([test]) => test(body))?.[1] : undefined;
  if (reader === undefined) {
    const status = fieldOf(row, "response", "status");
    const why = typeof status === "number" && status >= 400 ? `the call failed (status ${status})` : "the response body holds no reply";
    scope.warn("entry-skipped", `${why}: only the request was imported`, { path: response.path });
    return [];
  }
  try {
    const result = reader(body, { path: response.path });
    for (const warning of result.warnings)
      scope.warnings.push({
        code: warning.code,
        message: warning.message,
        ...(warning.messageIndex === undefined ? {} : { messageIndex: warning.messageIndex + offset }),
        ...(warning.path === "" ? {} : { path: warning.path }),
      });
    return result.messages;
  } catch (error) {
    if (!FormatError.isInstance(error)) throw error;
    for (const issue of error.issues) scope.failAt(issue.path, issue.message);
    return [];
  }
}

function answerFacts(row: Record<string, unknown>, response: unknown): CallFacts {
  const body = isRecord(response) ? response : {};
  const facts: CallFacts = {};
  const at = isoTime(fieldOf(row, "response", "created_at"));
  if (at !== undefined) facts.at = at;
  const latency = row.delay_ms ?? row.latency ?? fieldOf(row, "response", "delay_ms");
  if (typeof latency === "number") facts.latencyMs = latency;
  const model = [row.response_model, body.model, row.model, fieldOf(row, "request", "model")].find((value) => typeof value === "string" && value !== "");
  if (typeof model === "string") facts.model = model;
  const usage = readReportedUsage(body.usage ?? body.usageMetadata) ?? readReportedUsage(rowCounts(row));
  if (usage !== undefined) facts.usage = usage;
  const requestId = fieldOf(row, "request", "id");
  if (typeof requestId === "string") facts.requestId = requestId;
  if (typeof body.id === "string") facts.responseId = body.id;
  const choice = Array.isArray(body.choices) && isRecord(body.choices[0]) ? body.choices[0] : {};
  const stop = body.stop_reason ?? choice.finish_reason ?? body.status;
  if (typeof stop === "string") facts.stopReason = stop;
  return facts;
}

/** The row's own token counts, where the response body carries no usage. */
function rowCounts(row: Record<string, unknown>): Record<string, unknown> | undefined {
  const keys = ["prompt_tokens", "completion_tokens", "prompt_cache_read_tokens", "prompt_cache_write_tokens", "total_tokens"];
  const counts = Object.fromEntries(keys.flatMap((key) => (typeof row[key] === "number" ? [[key, row[key]]] : [])));
  return Object.keys(counts).length === 0 ? undefined : counts;
}
