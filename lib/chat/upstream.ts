import "server-only";
import type { JsonValue } from "@/lib/db";
import { CompletionAssembler, outcomeOfCompletion, SseParser, type CompletionOutcome, type UpstreamConfig } from "@/lib/upstream";
import { CallWatch, describeUpstreamError, networkErrorOf, parseMaybeJson, upstreamRequestHeaders } from "@/lib/upstream/forward";
import type { ChatDelta, ChatUpstreamError } from "./types";

/** The upstream answered with a completion (streamed or whole). */
export interface UpstreamCompleted {
  ok: true;
  status: number;
  /** The upstream's body, or the completion assembled from its stream. */
  response: Record<string, unknown>;
  outcome: CompletionOutcome;
  streamed: boolean;
}

export interface UpstreamFailed {
  ok: false;
  error: ChatUpstreamError;
  /** What arrived before it failed (a dropped stream's chunks assembled), else null. */
  response: Record<string, unknown> | null;
  streamed: boolean;
}

export type UpstreamResult = UpstreamCompleted | UpstreamFailed;

export interface CallUpstreamOptions {
  /** Aborts the call (the browser went away, or the Stop button). */
  signal?: AbortSignal;
  /** Each piece of choice 0 as it streams in. */
  onDelta?: (delta: ChatDelta) => void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Seconds from `retry-after-ms`, else `retry-after` (seconds or an HTTP date). */
export function retryAfterSeconds(headers: Headers): number | null {
  const milliseconds = Number(headers.get("retry-after-ms"));
  if (headers.has("retry-after-ms") && Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds / 1000;
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The error as the upstream sent it: its status and body, its error object's fields, the headers that explain it. */
function upstreamError(status: number, body: JsonValue, headers: Headers): ChatUpstreamError {
  return { ...describeUpstreamError(status, body, headers), body, retryAfter: retryAfterSeconds(headers) };
}

function ownError(status: number, type: string, message: string, code: string | null = type): ChatUpstreamError {
  return { source: "recorder", status, type, code, message, body: null, retryAfter: null, headers: {} };
}

/** A failure without an upstream answer: our timeout (504), the caller gone (499), or the network (502). */
function failureOf(watch: CallWatch, upstream: UpstreamConfig, error: unknown, midStream: boolean): ChatUpstreamError {
  const reason = watch.reason;
  if (reason?.kind === "client") return ownError(499, "client_closed_request", "the request was cancelled before the model answered");
  if (reason?.kind === "timeout") return ownError(504, "upstream_timeout", `${upstream.baseUrl} did not answer in time: ${reason.message}`);
  const network = networkErrorOf(error);
  if (midStream) return ownError(502, "stream_dropped", `the upstream stream ended before it was complete: ${network.message}`);
  return ownError(502, "upstream_unreachable", `cannot reach the upstream ${upstream.baseUrl}: ${network.message}`, network.code ?? "upstream_unreachable");
}

/** The deltas of choice 0 in one streamed chunk. */
export function deltasOfChunk(chunk: unknown): ChatDelta[] {
  if (!isRecord(chunk) || !Array.isArray(chunk.choices)) return [];
  const deltas: ChatDelta[] = [];
  for (const choice of chunk.choices) {
    if (!isRecord(choice) || (choice.index ?? 0) !== 0 || !isRecord(choice.delta)) continue;
    const { content, tool_calls: calls } = choice.delta;
    if (typeof content === "string" && content !== "") deltas.push({ type: "text", text: content });
    if (!Array.isArray(calls)) continue;
    for (const call of calls) {
      if (!isRecord(call)) continue;
      const fn = isRecord(call.function) ? call.function : {};
      deltas.push({
        type: "tool-call",
        index: typeof call.index === "number" ? call.index : 0,
        id: typeof call.id === "string" && call.id !== "" ? call.id : null,
        name: typeof fn.name === "string" && fn.name !== "" ? fn.name : null,
        arguments: typeof fn.arguments === "string" ? fn.arguments : "",
      });
    }
  }
  return deltas;
}

/**
 * One chat completion against the configured upstream, with lib/proxy's
 * forwarding pieces (headers, timeout watch, SSE parsing, assembly): the
 * reply streamed as deltas and assembled, or the upstream's error as sent.
 */
export async function callUpstream(upstream: UpstreamConfig, body: Record<string, unknown>, options: CallUpstreamOptions = {}): Promise<UpstreamResult> {
  const streamed = body.stream === true;
  const watch = new CallWatch(options.signal ?? new AbortController().signal, upstream.timeoutMs);
  try {
    let response: Response;
    try {
      response = await fetch(`${upstream.baseUrl}/chat/completions`, {
        method: "POST",
        headers: upstreamRequestHeaders(new Headers(), upstream, { key: "chat-recorder", via: "anonymous", agentApiKey: null }),
        body: JSON.stringify(body),
        signal: watch.signal,
      });
    } catch (error) {
      return { ok: false, error: failureOf(watch, upstream, error, false), response: null, streamed };
    }
    const eventStream = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    if (response.ok && eventStream && response.body) return await readStream(response, watch, upstream, options.onDelta, streamed);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      return { ok: false, error: failureOf(watch, upstream, error, false), response: null, streamed };
    }
    const answer = parseMaybeJson(text);
    if (!response.ok) return { ok: false, error: upstreamError(response.status, answer, response.headers), response: null, streamed };
    const outcome = outcomeOfCompletion(answer);
    if (!isRecord(answer) || !outcome.reply) {
      return {
        ok: false,
        error: { ...upstreamError(502, answer, response.headers), type: "invalid_completion", message: "the upstream answered without an assistant message" },
        response: null,
        streamed,
      };
    }
    if (outcome.reply.content) options.onDelta?.({ type: "text", text: outcome.reply.content });
    return { ok: true, status: response.status, response: answer, outcome, streamed: false };
  } finally {
    watch.dispose();
  }
}

async function readStream(
  response: Response,
  watch: CallWatch,
  upstream: UpstreamConfig,
  onDelta: CallUpstreamOptions["onDelta"],
  streamed: boolean,
): Promise<UpstreamResult> {
  const reader = response.body!.getReader();
  const parser = new SseParser();
  const assembler = new CompletionAssembler();
  const add = (data: string) => {
    assembler.addData(data);
    if (!onDelta || data.trim() === "[DONE]") return;
    try {
      for (const delta of deltasOfChunk(JSON.parse(data))) onDelta(delta);
    } catch {
      // Unparseable data is the assembler's to ignore too.
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      watch.touch();
      for (const message of parser.push(value)) add(message.data);
    }
  } catch (error) {
    void reader.cancel().catch(() => undefined);
    return { ok: false, error: failureOf(watch, upstream, error, true), response: assembler.completion(), streamed };
  }
  for (const message of parser.end()) add(message.data);
  const completion = assembler.completion();
  if (assembler.streamError) {
    // An error inside a 200 stream: the body is the upstream's, the status says the answer failed.
    const error = upstreamError(502, { error: assembler.streamError } as unknown as JsonValue, response.headers);
    return { ok: false, error: { ...error, type: error.type === "upstream_error" ? "stream_error" : error.type }, response: completion, streamed };
  }
  const outcome = outcomeOfCompletion(completion);
  if (!outcome.reply) {
    return { ok: false, error: ownError(502, "stream_dropped", "the upstream stream ended without an assistant message"), response: completion, streamed };
  }
  return { ok: true, status: response.status, response: completion, outcome, streamed };
}
