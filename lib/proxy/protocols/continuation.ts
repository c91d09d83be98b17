import "server-only";
import type { Message } from "@/lib/context";
import { getExchangesByConversationId, type ConversationRecord, type Database } from "@/lib/db";
import { extrasOf } from "@/lib/formats/canonical";
import { readResponsesOutput, readResponsesRequest } from "@/lib/formats";
import type { CanonicalMessage } from "../canonical";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A system message read from a request's `instructions`: they apply to that request only. */
function fromInstructions(message: Message): boolean {
  return message.role === "system" && extrasOf(message, "openai").instructions === true;
}

/** How deep a chain of `previous_response_id`s is followed. */
const MAX_CHAIN = 1_000;

/** A stored response as continuation needs it: the request that asked for it and the response. */
interface StoredResponse {
  request: unknown;
  response: unknown;
}

/**
 * Responses answered in this process, by id: an agent continues a response
 * as soon as it has it, before the proxy has recorded it (recording follows
 * the answer), so the recorded exchanges alone would miss the last one.
 */
const RECENT_KEY = Symbol.for("context-lab.proxy.recent-responses");
const MAX_RECENT = 1_000;
const globalForRecent = globalThis as typeof globalThis & { [RECENT_KEY]?: WeakMap<object, Map<string, StoredResponse>> };

function recentOf(db: Database): Map<string, StoredResponse> {
  const byDatabase = (globalForRecent[RECENT_KEY] ??= new WeakMap());
  let recent = byDatabase.get(db);
  if (!recent) {
    recent = new Map();
    byDatabase.set(db, recent);
  }
  return recent;
}

/** Notes a response the upstream completed, unless its request said `store: false` (P-R4). */
export function rememberResponse(db: Database, request: unknown, response: unknown): void {
  if (!isRecord(request) || request.store === false || !isRecord(response) || typeof response.id !== "string") return;
  const recent = recentOf(db);
  if (recent.size >= MAX_RECENT) recent.delete(recent.keys().next().value as string);
  recent.set(response.id, { request, response });
}

/**
 * The messages a stored response continued from, then its output, resolved
 * through the exchanges the proxy recorded (P-R4). A response the agent sent
 * with `store: false`, or that failed, cannot be continued, as upstream.
 */
function historyOf(byResponseId: Map<string, StoredResponse>, responseId: string): Message[] | null {
  const chain: StoredResponse[] = [];
  for (let id: unknown = responseId; typeof id === "string" && chain.length < MAX_CHAIN; ) {
    const exchange = byResponseId.get(id);
    if (!exchange) return null;
    chain.unshift(exchange);
    id = isRecord(exchange.request) ? exchange.request.previous_response_id : undefined;
  }
  const history: Message[] = [];
  for (const exchange of chain) {
    history.push(...readResponsesRequest(exchange.request).messages.filter((message) => !fromInstructions(message)));
    history.push(...readResponsesOutput(exchange.response).messages);
  }
  return history;
}

/** The responses recorded in the conversation (and those answered in this process), by id. */
async function recordedResponses(db: Database, conversation: ConversationRecord | null): Promise<Map<string, StoredResponse>> {
  const byResponseId = new Map<string, StoredResponse>();
  const exchanges = conversation ? await getExchangesByConversationId(db, conversation.id, { limit: 10_000 }) : [];
  for (const exchange of exchanges) {
    const response = exchange.response;
    const stored = isRecord(exchange.request) && exchange.request.store !== false;
    if (stored && exchange.status === 200 && isRecord(response) && typeof response.id === "string") byResponseId.set(response.id, exchange);
  }
  for (const [id, stored] of recentOf(db)) byResponseId.set(id, stored);
  return byResponseId;
}

/**
 * P-R4: a request that continues `previous_response_id` is recorded as the
 * whole conversation the model sees: the stored responses' inputs and
 * outputs (their instructions excepted, which apply to their own request),
 * then this request's instructions and input. Null when the proxy did not
 * record that response (the upstream decides; only the new input is recorded).
 */
export async function continuedMessages(db: Database, conversation: ConversationRecord | null, body: Record<string, unknown>, messages: CanonicalMessage[]): Promise<CanonicalMessage[] | null> {
  const previous = body.previous_response_id;
  if (typeof previous !== "string") return null;
  let history: Message[] | null;
  try {
    history = historyOf(recentOf(db), previous) ?? historyOf(await recordedResponses(db, conversation), previous);
  } catch {
    return null;
  }
  if (!history) return null;
  const instructions = messages.filter(({ message }) => fromInstructions(message));
  const input = messages.filter(({ message }) => !fromInstructions(message));
  return [...instructions, ...history.map((message) => ({ message })), ...input];
}
