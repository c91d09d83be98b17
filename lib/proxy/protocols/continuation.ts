import "server-only";
import type { Message } from "@/lib/context";
import { getExchangesByConversationId, type ConversationRecord, type Database } from "@/lib/db";
import { extrasOf } from "@/lib/formats/canonical";
import { readResponsesOutput, readResponsesRequest } from "@/lib/formats";
import { perDatabase } from "@/lib/db/per-database";

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
const MAX_RECENT = 1_000;
const recentOf = perDatabase<StoredResponse>("recent-responses", MAX_RECENT);

/** Notes a response the upstream completed, unless its request said `store: false` (P-R4). */
export function rememberResponse(db: Database, request: unknown, response: unknown): void {
  if (!isRecord(request) || request.store === false || !isRecord(response) || typeof response.id !== "string") return;
  recentOf(db).set(response.id, { request, response });
}

/** Every output item of the stored responses, by item id, for `item_reference`s. */
function itemsOf(stored: Map<string, StoredResponse>): Map<string, unknown> {
  const items = new Map<string, unknown>();
  for (const { response } of stored.values()) {
    const output = isRecord(response) && Array.isArray(response.output) ? response.output : [];
    for (const item of output) if (isRecord(item) && typeof item.id === "string") items.set(item.id, item);
  }
  return items;
}

function isReference(item: unknown): item is { type: "item_reference"; id: string } {
  return isRecord(item) && item.type === "item_reference" && typeof item.id === "string";
}

/** A request with its `item_reference`s replaced by the items they name; null when one is unknown. */
function expanded(request: unknown, items: Map<string, unknown>): unknown {
  if (!isRecord(request) || !Array.isArray(request.input) || !request.input.some(isReference)) return request;
  const input = request.input.map((item: unknown) => (isReference(item) ? (items.get(item.id) ?? null) : item));
  return input.includes(null) ? null : { ...request, input };
}

/**
 * The messages a stored response continued from, then its output, resolved
 * through the responses the proxy saw (P-R4). A response the agent sent with
 * `store: false`, or that failed, cannot be continued, as upstream.
 */
function historyOf(stored: Map<string, StoredResponse>, items: Map<string, unknown>, responseId: string): Message[] | null {
  const chain: StoredResponse[] = [];
  for (let id: unknown = responseId; typeof id === "string" && chain.length < MAX_CHAIN; ) {
    const link = stored.get(id);
    if (!link) return null;
    chain.unshift(link);
    id = isRecord(link.request) ? link.request.previous_response_id : undefined;
  }
  const history: Message[] = [];
  for (const link of chain) {
    const request = expanded(link.request, items);
    if (request === null) return null;
    history.push(...readResponsesRequest(request).messages.filter((message) => !fromInstructions(message)));
    history.push(...readResponsesOutput(link.response).messages);
  }
  return history;
}

/** The request's messages with its references and its previous responses resolved from `stored`; null when something is unknown. */
function resolve(stored: Map<string, StoredResponse>, body: Record<string, unknown>): Message[] | null {
  const items = itemsOf(stored);
  const request = expanded(body, items);
  if (request === null) return null;
  const previous = body.previous_response_id;
  const history = typeof previous === "string" ? historyOf(stored, items, previous) : [];
  if (history === null) return null;
  const messages = readResponsesRequest(request).messages;
  return [...messages.filter(fromInstructions), ...history, ...messages.filter((message) => !fromInstructions(message))];
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

/** True when a Responses request names stored responses: `previous_response_id` or an `item_reference`. */
export function continuesStoredResponses(body: Record<string, unknown>): boolean {
  return typeof body.previous_response_id === "string" || (Array.isArray(body.input) && body.input.some(isReference));
}

/**
 * P-R4: a request that continues `previous_response_id`, or names earlier
 * output items by `item_reference` (the AI SDK's default with `store`), is
 * recorded as the conversation the model sees: the stored responses' inputs
 * and outputs (their instructions excepted: they apply to their own request),
 * then this request's instructions and input, references replaced by the
 * items. Null when nothing is to resolve, or the proxy did not see what is
 * named (the upstream decides; the request is recorded as it came).
 */
export async function continuedMessages(db: Database, conversation: ConversationRecord | null, body: Record<string, unknown>): Promise<Message[] | null> {
  if (!continuesStoredResponses(body)) return null;
  try {
    const messages = resolve(recentOf(db), body) ?? resolve(await recordedResponses(db, conversation), body);
    return messages ?? null;
  } catch {
    // A stored request or response the converter cannot read: record the request as it came.
    return null;
  }
}
