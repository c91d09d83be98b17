import { Context } from "../context";
import { ReplayCancelledError } from "../errors";
import { indexOf } from "../history/index-of";
import { sameJson } from "../hash";
import { rangesSize, toRanges } from "../history/ranges";
import type { Message, ToolDefinition } from "../messages";
import type { MessageEffectKind, TraceStep } from "../pipeline";
import { buildRequest } from "../request/build";
import { isUserSystemMessage } from "../request/verdict";
import { sameMessage } from "../same-message";
import { STATE_KEYS } from "../state";
import { sharedCounter, TOKENS_PER_MESSAGE, type TiktokenCounter } from "../tokens/counter";
import { loadEncoding } from "../tokens/encodings";
import { costOfPrediction, predictReplayCall, replayCache } from "./cache-cost";
import { addCosts, costOfTokens, ZERO_COST } from "./cost";
import { mentionsOf, occurrencesOf, searchableText } from "./mentions";
import type { CallCache, CallTokens, ProcessorTouch, RecallRisk, ReplayCall, ReplayOptions, ReplayResult, ReplayStep, ReplayTotals } from "./types";

const DEFAULT_YIELD_EVERY = 8;
/** A replay also yields once a run of calls has taken this long: late calls of a long conversation cost milliseconds each. */
const YIELD_AFTER_MS = 10;
const NOTHING_OFFLOADED: Readonly<Record<string, string>> = Object.freeze({});

/** Conversation indices of the model calls (E-RP1): every assistant turn. */
export function callPoints(messages: readonly Message[]): number[] {
  const points: number[] = [];
  messages.forEach((message, index) => {
    if (message.role === "assistant") points.push(index);
  });
  return points;
}

/** What the policy had done to a conversation message by now, the first time it left the request (E-RP8). */
interface Fate {
  kind: MessageEffectKind;
  processor: string;
}

/** The request a call sent, as the next call's cache check needs it (E-RP5). */
interface SentRequest {
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  members: ReadonlySet<Message>;
}

/**
 * Replays a recorded conversation under a policy (E-RP1–E-RP8): for each
 * assistant turn, the request `buildRequest` makes from the history as a live
 * agent would have held it then (the previous request as the policy left it,
 * the recorded reply, the turns since: RP2), with its tokens by section, the
 * prompt-cache prefix it shares with the previous request, its cost, what each
 * processor touched and the recall risks it runs.
 * Runs unchanged in a Web Worker and on the server; yields to the event loop
 * every `yieldEvery` calls, or sooner once calls have run YIELD_AFTER_MS, and
 * stops at the next call once `signal` aborts.
 * @example const replay = await replayConversation({ messages, tools, policy: presetPolicy("observation_masking"), prices: { input: 2.5, cachedInput: 1.25, output: 10 } })
 */
export async function replayConversation(options: ReplayOptions): Promise<ReplayResult> {
  const { messages, policy, signal } = options;
  const tools = options.tools ?? [];
  const points = callPoints(messages);
  // In a Web Worker the ranks load on demand (E-I2); elsewhere they are loaded already.
  await loadEncoding(policy.encoding);
  const counter = sharedCounter(policy.encoding);
  const yieldEvery = Math.max(1, options.yieldEvery ?? DEFAULT_YIELD_EVERY);
  const keepMessages = options.keepMessages ?? true;
  const recall = options.recallRisk ?? true;
  const conversationIndex = indexMessages(messages);
  const fates = new Map<number, Fate>();
  const calls: ReplayCall[] = [];
  let carried: readonly Message[] = [];
  let consumed = 0;
  let previous: SentRequest | null = null;
  // E-RP2: what the agent offloaded on earlier calls stays in its store: later requests carry the markers, and the reload tool with them (E-RB5).
  const store = new Context("replay");
  const modelCache = replayCache(options.cache, options.cacheTtl);
  options.onProgress?.({ done: 0, total: points.length });
  let sliceStart = performance.now();
  let sinceYield = 0;
  for (const [call, at] of points.entries()) {
    if (signal?.aborted) throw new ReplayCancelledError(call, signal.reason);
    if (sinceYield >= yieldEvery || (sinceYield > 0 && performance.now() - sliceStart >= YIELD_AFTER_MS)) {
      await yieldToEventLoop();
      if (signal?.aborted) throw new ReplayCancelledError(call, signal.reason);
      sliceStart = performance.now();
      sinceYield = 0;
    }
    sinceYield += 1;
    const added = messages.slice(consumed, at);
    // E-T6: each conversation message is counted into the shared cache once; every later build reads it.
    for (const message of added) counter.countMessage(message);
    // E-RP2: the live agent's history is what it sent last time, the reply it got, and the turns since.
    const history = consumed === 0 ? added : [...carried, ...added];
    const built = await buildRequest({ history, policy, tools, summarizer: options.summarizer, parent: store, taskId: `replay-${call}` });
    keepOffloads(store, built.offloaded);
    const firstNew = call === 0 ? 0 : points[call - 1] + 1;
    const newTurns = new Set(messages.slice(firstNew, at).filter((message) => !isUserSystemMessage(message)));
    const processed = built.trace.steps.at(-1)?.historyAfter ?? built.assembly.candidate;
    // E-I3: the processed history's index has every message's count, those the processors wrote included: read, never encode again.
    const index = indexOf(processed);
    const tokensAt = (position: number) => counter.cachedCount(processed[position]) ?? index.tokensAt(counter, position);
    const tokensBefore = (position: number) => index.tokensBefore(counter, position);
    const touched = touchedBy(built.trace.steps, conversationIndex);
    recordFates(fates, touched);
    const tokens = tokensOf(built.messages, built.verdict.tokens, newTurns, tokensAt);
    const shared = cacheOf(previous, built.messages, built.tools, built.trace.steps, tokensBefore, counter);
    const reply = messages[at];
    const outputTokens = replyTokens(reply, counter);
    // E-RP5: a request that is not sent leaves the cache as it was.
    const prediction = modelCache && built.verdict.ok ? predictReplayCall(modelCache, built.messages, built.tools, counter) : null;
    const cache = prediction
      ? { ...shared, predicted: { cacheRead: prediction.cacheRead, cacheWrite: prediction.cacheWrite5m + prediction.cacheWrite1h } }
      : shared;
    const cost = !options.prices
      ? null
      : prediction
        ? costOfPrediction(prediction, tokens.total, outputTokens, options.prices)
        : costOfTokens({ input: tokens.total, cachedInput: shared.cachedTokens, output: outputTokens }, options.prices);
    calls.push({
      call,
      at,
      tokens,
      messages: keepMessages ? built.messages : [],
      messageCount: built.messages.length,
      toolNames: built.tools.map((tool) => tool.function.name),
      steps: built.trace.steps.map(stepSummary),
      touched,
      verdict: built.verdict,
      stopped: !built.verdict.ok,
      cache,
      outputTokens,
      cost,
      recallRisks: recall ? recallRisks(messages, firstNew, at, built.messages, fates) : [],
    });
    carried = [...processed, reply];
    consumed = at + 1;
    // E-RP5: a request that is not sent leaves the provider's cache as the last one sent left it.
    if (built.verdict.ok) previous = { messages: built.messages, tools: built.tools, members: new Set(built.messages) };
    options.onProgress?.({ done: call + 1, total: points.length });
  }
  return { policy, encoding: policy.encoding, calls, totals: totalsOf(calls, options.prices !== undefined && options.prices !== null) };
}

/** RP2: the agent's offload store takes what this call offloaded (its request's store holds the earlier ones too). */
function keepOffloads(store: Context, offloaded: Readonly<Record<string, string>>): void {
  const known = store.state.get(STATE_KEYS.offloadedMessages) ?? NOTHING_OFFLOADED;
  if (offloaded !== known && Object.keys(offloaded).length > Object.keys(known).length) store.state.set(STATE_KEYS.offloadedMessages, offloaded);
}

/** RP8: the first thing done to each conversation message is what it lost; later calls only carry it on. */
function recordFates(fates: Map<number, Fate>, touched: readonly ProcessorTouch[]): void {
  for (const touch of touched) {
    for (const [start, end] of touch.conversation) {
      for (let index = start; index < end; index += 1) if (!fates.has(index)) fates.set(index, { kind: touch.kind, processor: touch.processor });
    }
  }
}

/**
 * Lets the page or the worker's other messages run. A message through a fresh
 * channel is not throttled as nested timers are (4 ms each in browsers); a
 * timer is the fallback where there is no MessageChannel.
 */
function yieldToEventLoop(): Promise<void> {
  if (typeof MessageChannel !== "function") return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

function indexMessages(messages: readonly Message[]): Map<Message, number> {
  const index = new Map<Message, number>();
  messages.forEach((message, position) => {
    if (!index.has(message)) index.set(message, position);
  });
  return index;
}

/** RP3: system, tools, older history and the turns since the previous call; they add up to the verdict's total. */
function tokensOf(
  request: readonly Message[],
  verdict: { system: number; tools: number; history: number; total: number },
  newTurns: ReadonlySet<Message>,
  tokensAt: (position: number) => number,
): CallTokens {
  let fresh = 0;
  request.forEach((message, position) => {
    if (newTurns.has(message)) fresh += tokensAt(position);
  });
  return { system: verdict.system, tools: verdict.tools, history: verdict.history - fresh, newTurns: fresh, total: verdict.total };
}

const roleTokens = new Map<string, number>();

/** RP6: the recorded turn's own tokens (text, tool calls), without the per-message overhead. */
function replyTokens(reply: Message, counter: TiktokenCounter): number {
  const key = `${counter.encoding}:${reply.role}`;
  let role = roleTokens.get(key);
  if (role === undefined) {
    role = counter.countText(reply.role);
    roleTokens.set(key, role);
  }
  return counter.countMessage(reply) - TOKENS_PER_MESSAGE - role;
}

function sameTools(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  return a === b || (a.length === b.length && a.every((tool, index) => sameJson(tool, b[index])));
}

/**
 * E-RP5: the prompt cache holds the previous request; this one reads from it
 * the leading part they share (tools first, then messages). The cache breaks
 * when the previous request is not a prefix of this one: the processors whose
 * edits reached into what was sent before broke it.
 */
function cacheOf(
  previous: SentRequest | null,
  request: readonly Message[],
  tools: readonly ToolDefinition[],
  steps: readonly TraceStep[],
  tokensBefore: (position: number) => number,
  counter: TiktokenCounter,
): CallCache {
  if (previous === null) return { cachedTokens: 0, sharedMessages: 0, broken: false };
  if (!sameTools(previous.tools, tools)) return { cachedTokens: 0, sharedMessages: 0, broken: true, brokenAt: -1, brokenBy: breakers(previous, steps) };
  let shared = 0;
  while (shared < previous.messages.length && shared < request.length && sameMessage(previous.messages[shared], request[shared])) shared += 1;
  const cachedTokens = counter.countTools(tools) + tokensBefore(shared);
  if (shared === previous.messages.length) return { cachedTokens, sharedMessages: shared, broken: false };
  return { cachedTokens, sharedMessages: shared, broken: true, brokenAt: shared, brokenBy: breakers(previous, steps) };
}

/** The processors whose effects reached into the part of their input that was sent before. */
function breakers(previous: SentRequest, steps: readonly TraceStep[]): string[] {
  const names: string[] = [];
  for (const step of steps) {
    if (step.effects.length === 0) continue;
    let sent = 0;
    while (sent < step.historyBefore.length && previous.members.has(step.historyBefore[sent])) sent += 1;
    if (step.effects.some((effect) => effect.before.some(([start]) => start < sent))) names.push(step.processor);
  }
  return names;
}

function stepSummary(step: TraceStep): ReplayStep {
  const effects: Partial<Record<MessageEffectKind, number>> = {};
  for (const effect of step.effects) effects[effect.kind] = (effects[effect.kind] ?? 0) + Math.max(1, rangesSize(effect.before));
  return {
    processor: step.processor,
    messagesBefore: step.messagesBefore,
    messagesAfter: step.messagesAfter,
    tokensBefore: step.tokensBefore,
    tokensAfter: step.tokensAfter,
    effects,
  };
}

/** RP4: per processor and effect kind, the messages it touched and which of them were the conversation's own. */
function touchedBy(steps: readonly TraceStep[], conversationIndex: ReadonlyMap<Message, number>): ProcessorTouch[] {
  const touches: ProcessorTouch[] = [];
  for (const step of steps) {
    const byKind = new Map<MessageEffectKind, { messages: number; conversation: number[] }>();
    for (const effect of step.effects) {
      let entry = byKind.get(effect.kind);
      if (!entry) {
        entry = { messages: 0, conversation: [] };
        byKind.set(effect.kind, entry);
      }
      for (const [start, end] of effect.before) {
        entry.messages += end - start;
        for (let position = start; position < end; position += 1) {
          const index = conversationIndex.get(step.historyBefore[position]);
          if (index !== undefined) entry.conversation.push(index);
        }
      }
    }
    for (const [kind, entry] of byKind) touches.push({ processor: step.processor, kind, messages: entry.messages, conversation: toRanges(entry.conversation) });
  }
  return touches;
}

/**
 * E-RP8: each user turn since the previous call, and the recorded reply, may
 * mention something an earlier message held. When that earlier message is
 * one the policy had taken out and nothing the request carries before the
 * mention holds the text, the call is flagged: a signal, not a proof.
 */
function recallRisks(messages: readonly Message[], firstNew: number, at: number, request: readonly Message[], fates: ReadonlyMap<number, Fate>): RecallRisk[] {
  if (fates.size === 0) return [];
  const risks: RecallRisk[] = [];
  const seen = new Set<string>();
  let positions: Map<Message, number> | null = null;
  for (let turn = firstNew; turn <= at; turn += 1) {
    const message = messages[turn];
    if (message.role !== "user" && message.role !== "assistant") continue;
    for (const mention of mentionsOf(message)) {
      if (seen.has(mention.text)) continue;
      const source = occurrencesOf(messages, mention.text).find((index) => index < turn && fates.has(index));
      if (source === undefined) continue;
      positions ??= new Map(request.map((sent, position) => [sent, position]));
      // What the model could read before the mention: the request up to that turn (all of it for the reply).
      const before = positions.get(message) ?? request.length;
      if (request.some((sent, position) => position < before && searchableText(sent).includes(mention.text))) continue;
      seen.add(mention.text);
      const fate = fates.get(source)!;
      risks.push({ mention: mention.text, kind: mention.kind, turnIndex: turn, sourceIndex: source, lostBy: fate.kind, processor: fate.processor });
    }
  }
  return risks;
}

/**
 * The totals of several replays as one (E-RP7): every count and cost added,
 * the cache-hit share recomputed from the sums; no cost when any replay has none.
 * @example sumTotals(results.map((result) => result.totals))
 */
export function sumTotals(totals: readonly ReplayTotals[]): ReplayTotals {
  const sum: ReplayTotals = {
    calls: 0,
    inputTokens: 0,
    cachedTokens: 0,
    outputTokens: 0,
    cost: { ...ZERO_COST },
    cacheHitShare: 0,
    cacheBreaks: 0,
    budgetStops: 0,
    riskyCalls: 0,
  };
  for (const entry of totals) {
    sum.calls += entry.calls;
    sum.inputTokens += entry.inputTokens;
    sum.cachedTokens += entry.cachedTokens;
    sum.outputTokens += entry.outputTokens;
    sum.cost = sum.cost && entry.cost ? addCosts(sum.cost, entry.cost) : null;
    sum.cacheBreaks += entry.cacheBreaks;
    sum.budgetStops += entry.budgetStops;
    sum.riskyCalls += entry.riskyCalls;
  }
  sum.cacheHitShare = sum.inputTokens === 0 ? 0 : sum.cachedTokens / sum.inputTokens;
  return sum;
}

function totalsOf(calls: readonly ReplayCall[], priced: boolean): ReplayTotals {
  const totals: ReplayTotals = {
    calls: calls.length,
    inputTokens: 0,
    cachedTokens: 0,
    outputTokens: 0,
    cost: priced ? { ...ZERO_COST } : null,
    cacheHitShare: 0,
    cacheBreaks: 0,
    budgetStops: 0,
    riskyCalls: 0,
  };
  for (const call of calls) {
    totals.inputTokens += call.tokens.total;
    totals.cachedTokens += call.cache.cachedTokens;
    totals.outputTokens += call.outputTokens;
    if (totals.cost && call.cost) totals.cost = addCosts(totals.cost, call.cost);
    if (call.cache.broken) totals.cacheBreaks += 1;
    if (call.stopped) totals.budgetStops += 1;
    if (call.recallRisks.length > 0) totals.riskyCalls += 1;
  }
  totals.cacheHitShare = totals.inputTokens === 0 ? 0 : totals.cachedTokens / totals.inputTokens;
  return totals;
}
