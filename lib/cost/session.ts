import {
  ContextError,
  cacheableTokens,
  createCacheState,
  explainCacheBreak,
  predictCall,
  promptTokensOfUsage,
  requestSegments,
  sharedCounter,
  TTL_SECONDS,
  withUnseenPrefix,
  type CacheBreak,
  type CacheCall,
  type CachePrediction,
  type CacheRules,
  type CacheSegment,
  type CacheState,
  type CacheTtl,
  type UsageTokens,
} from "@/lib/context";
import { createSlicer } from "@/lib/memory/slices";
import { cachingOf, costOfUsage, findModel, type ModelEntry } from "@/lib/models";
import type { ConversationCost, CostCall, CostTimelinePoint, CostUsage, SessionCall } from "./types";

/** A call with what the chain computed for it, before calls of every conversation are merged. */
interface Priced {
  call: SessionCall;
  cost: Omit<CostCall, "index">;
  timeline: Omit<CostTimelinePoint, "index">;
  predictedUsd: number | null;
}

/** What the previous call of a chain left for the next one's cache-break check. */
interface Previous {
  cacheCall: CacheCall;
  cached: number;
  ttl: CacheTtl | null;
  startedAt: number | null;
}

function plainUsage(usage: UsageTokens): CostUsage {
  const { input, cacheRead, cacheWrite5m, cacheWrite1h, output, reasoning } = usage;
  return { input, cacheRead, cacheWrite5m, cacheWrite1h, output, reasoning };
}

/**
 * CC-6: the request's segments, brought to the prompt the provider reported:
 * a session log's missing part (the agent's system prompt and tools) is one
 * leading segment; a count above the report is scaled down to it, as is any
 * difference on a recorded body (the tokenizer is an approximation).
 */
function segmentsOf(call: SessionCall, entry: ModelEntry, rules: CacheRules, counts: Map<string, number>): CacheSegment[] {
  const counter = sharedCounter(entry.tokenizer.encoding, entry.mediaRule);
  const assumed = call.usage !== null && call.usage.cacheWrite1h > 0 ? "1h" : (rules.ttls[0] ?? "5m");
  const segments = requestSegments(call.request.messages, call.request.tools, {
    countMessage: (message, key) => {
      let tokens = counts.get(key);
      if (tokens === undefined) {
        tokens = counter.countMessage(message);
        counts.set(key, tokens);
      }
      return tokens;
    },
    countTools: (tools) => counter.countTools(tools),
    ...(call.marked || rules.mode !== "breakpoints" ? {} : { assumeBreakpoints: assumed }),
  });
  if (call.usage === null) return segments;
  const reported = promptTokensOfUsage(call.usage);
  const counted = segments.reduce((sum, segment) => sum + segment.tokens, 0);
  if (!call.marked && reported > counted) return withUnseenPrefix(segments, reported - counted);
  if (counted === 0 || counted === reported) return segments;
  const scale = reported / counted;
  let carried = 0;
  let given = 0;
  // Scaled running totals rounded once each, so the segments add up to the report exactly.
  return segments.map((segment) => {
    carried += segment.tokens;
    const until = Math.round(carried * scale);
    const tokens = until - given;
    given = until;
    return { ...segment, tokens };
  });
}

/** CC9: what a reported call left cached: its read and writes, or for an automatic cache its whole prompt in increments. */
function cachedAfterReport(usage: UsageTokens, rules: CacheRules): number {
  if (usage.cacheWrite5m + usage.cacheWrite1h > 0 || rules.billsWrites) return usage.cacheRead + usage.cacheWrite5m + usage.cacheWrite1h;
  return rules.mode === "none" ? usage.cacheRead : cacheableTokens(promptTokensOfUsage(usage), rules);
}

function ttlOfReport(usage: UsageTokens, rules: CacheRules, last: CacheTtl | null): CacheTtl | null {
  if (usage.cacheWrite5m > 0) return "5m";
  if (usage.cacheWrite1h > 0) return "1h";
  return last ?? rules.ttls[0] ?? null;
}

function predictedUsage(prediction: CachePrediction, call: SessionCall, entry: ModelEntry): CostUsage {
  const counter = sharedCounter(entry.tokenizer.encoding, entry.mediaRule);
  const output = call.usage?.output ?? call.reply.reduce((sum, message) => sum + counter.countWritten(message), 0);
  return {
    input: prediction.input,
    cacheRead: prediction.cacheRead,
    cacheWrite5m: prediction.cacheWrite5m,
    cacheWrite1h: prediction.cacheWrite1h,
    output,
    reasoning: call.usage?.reasoning ?? 0,
  };
}

/** A call as predicted and as billed, before it is set beside the call before it. */
interface Modelled {
  cacheCall: CacheCall;
  prediction: CachePrediction;
  usage: CostUsage;
  predicted: CostUsage;
  rules: CacheRules;
  entry: ModelEntry;
}

/** CC11: the call's entry of the API: as billed, its prediction and the difference when reported, why the cache broke. */
function costEntry(call: SessionCall, modelled: Modelled, cacheBreak: CacheBreak | null): Omit<CostCall, "index"> {
  const { usage, predicted, entry } = modelled;
  const breakdown = costOfUsage(usage, entry);
  const predictedCost = costOfUsage(predicted, entry);
  const reported =
    call.usage === null
      ? {}
      : {
          predicted: { usage: predicted, costUsd: predictedCost?.total ?? null },
          difference: {
            cacheRead: usage.cacheRead - predicted.cacheRead,
            cacheWrite: usage.cacheWrite5m + usage.cacheWrite1h - predicted.cacheWrite5m - predicted.cacheWrite1h,
            input: usage.input - predicted.input,
            costUsd: breakdown !== null && predictedCost !== null ? breakdown.total - predictedCost.total : null,
          },
        };
  return {
    at: call.at,
    model: call.model,
    conversationId: call.conversationId,
    source: call.usage === null ? "predicted" : "reported",
    usage,
    costUsd: breakdown?.total ?? null,
    breakdown,
    cacheBreak,
    responseId: call.responseId,
    exchangeId: call.exchangeId,
    branchId: call.branchId,
    position: call.position,
    ...(call.subagent ? { subagent: { conversationId: call.conversationId } } : {}),
    ...reported,
  };
}

/** CC12: the call's point on the timeline, against the call before it. */
function timelinePoint(call: SessionCall, usage: CostUsage, previous: Previous | null, cacheBreak: CacheBreak | null): Omit<CostTimelinePoint, "index"> {
  const gap = previous !== null && previous.startedAt !== null && call.startedAt !== null ? call.startedAt - previous.startedAt : null;
  const ttlSeconds = previous?.ttl ? TTL_SECONDS[previous.ttl] : null;
  return {
    at: call.at,
    conversationId: call.conversationId,
    subagent: call.subagent,
    cacheRead: usage.cacheRead,
    cacheWrite: usage.cacheWrite5m + usage.cacheWrite1h,
    miss: usage.input,
    lost: previous === null ? 0 : Math.max(0, previous.cached - usage.cacheRead),
    gapSeconds: gap === null ? null : Math.round(gap / 1000),
    ttlSeconds,
    expired: gap !== null && ttlSeconds !== null && gap > ttlSeconds * 1000,
    cacheBreak: cacheBreak?.reason ?? null,
  };
}

/** CC-6–CC-8: the call's request against the session's cache, and its usage as billed (reported, else predicted). */
function modelCall(call: SessionCall, catalogue: readonly ModelEntry[], state: CacheState, counts: Map<string, number>): Modelled {
  const entry = findModel(call.model ?? "", catalogue).entry;
  const rules = cachingOf(entry);
  const cacheCall: CacheCall = { segments: segmentsOf(call, entry, rules, counts), at: call.startedAt, rules, compacted: call.compacted };
  const prediction = predictCall(cacheCall, state);
  const predicted = predictedUsage(prediction, call, entry);
  return { cacheCall, prediction, predicted, usage: call.usage === null ? predicted : plainUsage(call.usage), rules, entry };
}

/**
 * Prices one chain of calls in order against its prompt cache (CC-7–CC-12);
 * only listed calls are returned. A long session's chain is priced in slices
 * (CC-14): other requests are answered meanwhile.
 */
async function priceChain(calls: readonly SessionCall[], catalogue: readonly ModelEntry[], signal: AbortSignal | undefined): Promise<Priced[]> {
  const slicer = createSlicer();
  const state = createCacheState();
  const counts = new Map<string, number>();
  const priced: Priced[] = [];
  const lastOf = new Map<string, Previous>();
  const lastTtlOf = new Map<string, CacheTtl | null>();
  let last: Previous | null = null;
  for (const call of calls) {
    await slicer.step();
    if (signal?.aborted) throw new ContextError(`pricing cancelled after ${priced.length} calls: its client went away`, { cause: signal.reason });
    // CC-9: a call is weighed against its own conversation's call before it, or, first in its conversation, the key's last call.
    const previous = lastOf.get(call.conversationId) ?? last;
    const modelled = modelCall(call, catalogue, state, counts);
    const { cacheCall, prediction, usage, rules } = modelled;
    const cacheBreak =
      previous === null
        ? null
        : explainCacheBreak({
            previous: previous.cacheCall,
            current: cacheCall,
            previousCached: previous.cached,
            previousTtl: previous.ttl,
            read: usage.cacheRead,
          });
    if (call.listed) {
      const cost = costEntry(call, modelled, cacheBreak);
      priced.push({ call, cost, predictedUsd: cost.predicted?.costUsd ?? cost.costUsd, timeline: timelinePoint(call, usage, previous, cacheBreak) });
    }
    const reportedTtl = call.usage === null ? null : ttlOfReport(call.usage, rules, lastTtlOf.get(call.conversationId) ?? null);
    lastTtlOf.set(call.conversationId, reportedTtl);
    last = {
      cacheCall,
      cached: call.usage === null ? prediction.cachedAfter : cachedAfterReport(call.usage, rules),
      ttl: call.usage === null ? prediction.ttl : reportedTtl,
      startedAt: call.startedAt,
    };
    lastOf.set(call.conversationId, last);
  }
  return priced;
}

/** Calls of every conversation in time order; a call without a time keeps its place after the call before it in its chain. */
function merge(chains: readonly Priced[][]): Priced[] {
  const keyed = chains.flatMap((chain, chainIndex) => {
    let last = Number.NEGATIVE_INFINITY;
    return chain.map((item, order) => {
      last = item.call.startedAt ?? last;
      return { item, time: last, chainIndex, order };
    });
  });
  keyed.sort((a, b) => a.time - b.time || a.chainIndex - b.chainIndex || a.order - b.order);
  return keyed.map(({ item }) => item);
}

/**
 * A session's cost (CC-10–CC-12): each conversation's calls (the session's
 * own first, then its subagents') priced against their own prompt cache, then
 * merged in time order with one index across them. Stops, with a
 * ContextError, at the first slice after `signal` aborts (CC-14).
 * @example await priceSession(conversationId, [ownCalls, ...subagentCalls], catalogue)
 */
export async function priceSession(
  conversationId: string,
  chains: readonly (readonly SessionCall[])[],
  catalogue: readonly ModelEntry[],
  signal?: AbortSignal,
): Promise<ConversationCost> {
  const priced: Priced[][] = [];
  for (const chain of chains) priced.push(await priceChain(chain, catalogue, signal));
  const merged = merge(priced);
  let totalUsd = 0;
  let predictedTotalUsd = 0;
  let unpricedCalls = 0;
  for (const item of merged) {
    if (item.cost.costUsd === null) unpricedCalls += 1;
    else totalUsd += item.cost.costUsd;
    predictedTotalUsd += item.predictedUsd ?? 0;
  }
  return {
    conversationId,
    totalUsd,
    predictedTotalUsd,
    unpricedCalls,
    calls: merged.map((item, index) => ({ index, ...item.cost })),
    timeline: merged.map((item, index) => ({ index, ...item.timeline })),
  };
}
