import "server-only";
import type { ExchangeRecord } from "@/lib/db";
import { publishLiveEvent, type ExchangeSummary } from "@/lib/live";

const now = () => new Date().toISOString();

export { publishAppended } from "@/lib/live";

export interface ExchangeDetails {
  replyBranchId?: string | null;
  model?: string | null;
  usage?: ExchangeSummary["usage"];
  finishReason?: string | null;
  requestMessages: number;
}

/** Publishes a chat call like the proxy's: `exchange-started` while the model answers, `exchange-recorded` once stored. */
export function publishExchange(type: "exchange-started" | "exchange-recorded", exchange: ExchangeRecord, details: ExchangeDetails): void {
  const summary: ExchangeSummary = {
    id: exchange.id,
    branchId: exchange.branchId,
    replyBranchId: details.replyBranchId ?? null,
    status: exchange.status,
    streamed: exchange.streamed,
    durationMs: exchange.durationMs,
    error: exchange.error,
    model: details.model ?? null,
    usage: details.usage ?? null,
    finishReason: details.finishReason ?? null,
    requestMessages: details.requestMessages,
    sentMessages: null,
    createdAt: exchange.createdAt,
  };
  publishLiveEvent({ type, conversationId: exchange.conversationId, at: now(), exchange: summary });
}
