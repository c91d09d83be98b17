import { messageKey, sameJson, sharedCounter, toUsage, type Message, type ToolDefinition } from "@/lib/context";
import { readReportedUsage, readRequest } from "@/lib/formats";
import type { WireFormat } from "@/lib/formats/types";
import { BUILT_IN_MODELS, costOfUsage, findModel, type ModelEntry, type UsageTokens } from "@/lib/models";
import { protocolOfCall } from "./protocol";
import type { CallError, CallSummary, CallTokens, CallUsage } from "./types";

/** What a call is read from: a stored exchange's fields. */
export interface StoredCall {
  id: string;
  conversationId: string;
  branchId: string;
  request: unknown;
  sent: unknown;
  response: unknown;
  status: number | null;
  error: unknown;
  streamed: boolean;
  durationMs: number | null;
  createdAt: string;
}

/** How many calls before a page are read to count retries and split its first call's tokens (CA-2). */
export const CALL_LOOKBACK = 8;

type Body = Record<string, unknown>;
const isBody = (value: unknown): value is Body => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

interface ReadBody {
  messages: Message[];
  tools: ToolDefinition[];
}

/** A body's canonical messages and tools; null when it is not a request of `protocol`. */
function readBody(protocol: WireFormat | null, body: unknown): ReadBody | null {
  if (protocol === null) return null;
  try {
    const read = readRequest(protocol, body);
    return { messages: read.messages, tools: read.tools ?? [] };
  } catch {
    return null;
  }
}

function errorOf(error: unknown): CallError | null {
  if (error === null || error === undefined) return null;
  if (!isBody(error)) return { source: null, type: "error", message: String(error), code: null };
  const type = text(error.type) ?? "error";
  return { source: text(error.source), type, message: text(error.message) ?? type.replaceAll("_", " "), code: text(error.code) };
}

function retryAfterOf(error: unknown): string | null {
  const headers = isBody(error) && isBody(error.headers) ? error.headers : null;
  const seconds = text(headers?.["retry-after"]);
  if (seconds !== null) return /^\d+(\.\d+)?$/.test(seconds) ? `${seconds} s` : seconds;
  const milliseconds = text(headers?.["retry-after-ms"]);
  return milliseconds === null ? null : `${milliseconds} ms`;
}

function usageOf(response: unknown): CallUsage | null {
  const usage = isBody(response) && isBody(response.usage) ? response.usage : null;
  if (!usage) return null;
  try {
    const normal = toUsage(usage as Parameters<typeof toUsage>[0]);
    return { input: normal.promptTokens, output: normal.outputTokens, cached: normal.cachedPromptTokens, cacheWrite: normal.cacheWriteTokens };
  } catch {
    // A usage object of a shape the engine does not know is shown as unknown, never as zero.
    return null;
  }
}

/** C5: the usage as billed, by the reader every cost uses (F-SF1), else from the engine's reading of it. */
function billedTokens(response: unknown, usage: CallUsage): UsageTokens {
  const reported = isBody(response) ? readReportedUsage(response.usage) : undefined;
  if (reported !== undefined) return reported;
  return {
    input: usage.input - usage.cached - usage.cacheWrite,
    cacheRead: usage.cached,
    cacheWrite5m: usage.cacheWrite,
    cacheWrite1h: 0,
    output: usage.output,
    reasoning: 0,
  };
}

function outcomeOf(call: StoredCall): CallSummary["outcome"] {
  if (call.error !== null && call.error !== undefined) return "failed";
  if (call.status === null) return "pending";
  return call.status >= 400 ? "failed" : "ok";
}

/** C4: system messages, tool definitions, messages the previous call sent too, the rest; counted with the model's encoding. */
function splitTokens(read: ReadBody, previous: ReadBody | null, entry: ModelEntry): CallTokens {
  const counter = sharedCounter(entry.tokenizer.encoding, entry.mediaRule);
  const seen = new Map<string, number>();
  for (const message of previous?.messages ?? []) {
    const key = messageKey(message);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const split = { system: 0, history: 0, new: 0 };
  for (const message of read.messages) {
    const tokens = counter.countMessage(message);
    if (message.role === "system") {
      split.system += tokens;
      continue;
    }
    const key = messageKey(message);
    const left = seen.get(key) ?? 0;
    if (left > 0) {
      seen.set(key, left - 1);
      split.history += tokens;
    } else split.new += tokens;
  }
  // countMessages adds the reply priming to the messages' own counts.
  split.new += counter.countMessages(read.messages) - split.system - split.history - split.new;
  const tools = counter.countTools(read.tools);
  return { encoding: entry.tokenizer.encoding, exact: entry.tokenizer.exact, ...split, tools, total: split.system + tools + split.history + split.new };
}

function modelOf(call: StoredCall): { asked: string | null; answered: string | null } {
  return { asked: isBody(call.request) ? text(call.request.model) : null, answered: isBody(call.response) ? text(call.response.model) : null };
}

/** What a call forwarded: the body after the pipeline, else the agent's own. */
export function forwardedBody(call: Pick<StoredCall, "request" | "sent">): unknown {
  return call.sent ?? call.request;
}

/** A call's forwarded messages, canonical; empty when its body cannot be read. */
export function forwardedMessages(call: StoredCall): Message[] {
  return readBody(protocolOfCall(call.request, call.response), forwardedBody(call))?.messages ?? [];
}

/**
 * Describes `calls` in order (CA-1–CA-5). `earlier` are the calls just before
 * them (oldest first): they count retries and give the first call the
 * history its tokens are split against.
 */
export function describeCalls(
  calls: readonly StoredCall[],
  earlier: readonly StoredCall[] = [],
  catalogue: readonly ModelEntry[] = BUILT_IN_MODELS,
): CallSummary[] {
  const all = [...earlier, ...calls];
  const summaries: CallSummary[] = [];
  let previousRead: ReadBody | null = null;
  let previousRetries = 0;
  all.forEach((call, index) => {
    const protocol = protocolOfCall(call.request, call.response);
    const read = readBody(protocol, forwardedBody(call));
    const before = all[index - 1];
    // CA-2: the same body as a failed call just before it is a retry of that call.
    const retries = before && outcomeOf(before) === "failed" && sameJson(before.request, call.request) ? previousRetries + 1 : 0;
    if (index >= earlier.length) {
      const asked = call.sent === null || call.sent === undefined ? read : readBody(protocol, call.request);
      const { asked: askedModel, answered } = modelOf(call);
      const entry = findModel(askedModel ?? answered ?? "", catalogue).entry;
      const usage = usageOf(call.response);
      const cost = usage ? (costOfUsage(billedTokens(call.response, usage), entry)?.total ?? null) : null;
      const outcome = outcomeOf(call);
      summaries.push({
        id: call.id,
        conversationId: call.conversationId,
        branchId: call.branchId,
        createdAt: call.createdAt,
        protocol,
        model: answered ?? askedModel,
        status: call.status,
        outcome,
        error: errorOf(call.error),
        streamed: call.streamed,
        latencyMs: call.durationMs,
        retries,
        retryAfter: outcome === "failed" ? retryAfterOf(call.error) : null,
        usage,
        cost,
        requestMessages: asked?.messages.length ?? null,
        sentMessages: read?.messages.length ?? null,
        tokens: read ? splitTokens(read, previousRead, entry) : null,
      });
    }
    previousRead = read;
    previousRetries = retries;
  });
  return summaries;
}
