import "server-only";
import { getExchangePageByConversationId, getExchangeWithEarlierById, type Database } from "@/lib/db";
import { loadCatalogue } from "@/lib/models/server";
import { CALL_LOOKBACK, describeCalls, forwardedMessages } from "./describe";
import type { CallDetail, CallPage } from "./types";

export interface CallListOptions {
  /** The id of the last call of the previous page. */
  after?: string;
  /** Default 50. */
  limit?: number;
  /** Only failed calls (the conversation view's markers). */
  failedOnly?: boolean;
}

/** A page of a conversation's model calls, oldest first. */
export async function listCallsByConversationId(db: Database, conversationId: string, options: CallListOptions = {}): Promise<CallPage> {
  const page = await getExchangePageByConversationId(db, conversationId, {
    after: options.after,
    limit: options.limit,
    failedOnly: options.failedOnly,
    // Failed calls alone are not consecutive: their retries and history come from each one's own predecessors.
    before: options.failedOnly ? 0 : CALL_LOOKBACK,
  });
  const catalogue = await loadCatalogue(db);
  if (!options.failedOnly) return { calls: describeCalls(page.exchanges, page.earlier, catalogue), nextCursor: page.nextCursor };
  const calls = [];
  for (const exchange of page.exchanges) {
    const { earlier } = await getExchangeWithEarlierById(db, exchange.id, CALL_LOOKBACK);
    calls.push(...describeCalls([exchange], earlier, catalogue));
  }
  return { calls, nextCursor: page.nextCursor };
}

/** One call with its bodies and what the call before it forwarded. */
export async function getCallDetailById(db: Database, callId: string): Promise<CallDetail> {
  const { exchange, earlier } = await getExchangeWithEarlierById(db, callId, CALL_LOOKBACK);
  const [call] = describeCalls([exchange], earlier, await loadCatalogue(db));
  const previous = earlier.at(-1);
  return {
    call,
    request: exchange.request,
    sent: exchange.sent,
    response: exchange.response,
    error: exchange.error,
    messages: forwardedMessages(exchange),
    previous: previous ? { id: previous.id, messages: forwardedMessages(previous) } : null,
  };
}
