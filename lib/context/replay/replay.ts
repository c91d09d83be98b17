import { ReplayCancelledError } from "../errors";
import { rangesSize, toRanges } from "../history/ranges";
import type { Message, ToolDefinition } from "../messages";
import type { MessageEffectKind, TraceStep } from "../pipeline";
import { buildRequest } from "../request/build";
import { isUserSystemMessage } from "../request/verdict";
import { sharedCounter, TOKENS_PER_MESSAGE, type TiktokenCounter } from "../tokens/counter";
import { addCosts, costOfTokens, ZERO_COST } from "./cost";
import { mentionsOf, searchableText } from "./mentions";
import type { CallCache, CallTokens, ProcessorTouch, RecallRisk, ReplayCall, ReplayOptions, ReplayResult, ReplayStep, ReplayTotals } from "./types";

const DEFAULT_YIELD_EVERY = 8;

/** Conversation indices of the model calls (RP1): every assistant turn. */
export function callPoints(messages: readonly Message[]): number[] {
  const points: number[] = [];
  messages.forEach((message, index) => {
    if (message.role === "assistant") points.push(index);
  });
  return points;
}

/** What the policy had done to a conversation message by now, the first time it left the request (RP8). */
interface Fate {
  kind: MessageEffectKind;
  processor: string;
}

/** The request a call sent, as the next call's cache check needs it (RP5). */
interface SentRequest {
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  members: ReadonlySet<Message>;
}

/**
 * Replays a recorded conversation under a policy (RP1–RP8): for each
 * assistant turn, the request `buildRequest` makes from the history as a live
 * agent would have held it then (the previous request as the policy left it,
 * the recorded reply, the turns since: RP2), with its tokens by section, the
 * prompt-cache prefix it shares with the previous request, its cost, what each
 * processor touched and the recall risks it runs.
 * Runs unchanged in a Web Worker and on the server; yields to the event loop
 * every `yieldEvery` calls and stops at the next call once `signal` aborts.
 * @example const replay = await replayConversation({ messages, tools, policy: presetPolicy("observation_masking"), prices: { input: 2.5, cachedInput: 1.25, output: 10 } })
 */
export async function replayConversation(options: ReplayOptions): Promise<ReplayResult> {
  const { messages, policy, signal } = options;
  const tools = options.tools ?? [];
  const points = callPoints(messages);
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
  options.onProgress?.({ done: 0, total: points.length });
  for (const [call, at] of points.entries()) {
    if (signal?.aborted) throw new ReplayCancelledError(call, signal.reason);
    if (call > 0 && call % yieldEvery === 0) {
      await yieldToEventLoop();
      if (signal?.aborted) throw new ReplayCancelledError(call, signal.reason);
    }
    const added = messages.slice(consumed, at);
    // T6: each conversation message is counted into the shared cache once; every later build reads it.
    for (const message of added) counter.countMessage(message);
    // RP2: the live agent's history is what it sent last time, the reply it got, and the turns since.
    const history = consumed === 0 ? added : [...carried, ...added];
    const built = await buildRequest({ history, policy, tools, summarizer: options.summarizer, taskId: `replay-${call}` });
    const firstNew = call === 0 ? 0 : points[call - 1] + 1;
    const newTurns = new Set(messages.slice(firstNew, at).filter((message) => !isUserSystemMessage(message)));
    const touched = touchedBy(built.trace.steps, conversationIndex);
    for (const touch of touched) for (const [start, end] of touch.conversation) for (let index = start; index < end; index += 1) if (!fates.has(index)) fates.set(index, { kind: touch.kind, processor: touch.processor });
    const tokens = tokensOf(built.messages, built.verdict.tokens, newTurns, counter);
    const cache = cacheOf(previous, built.messages, built.tools, built.trace.steps, counter);
    const reply = messages[at];
    const outputTokens = replyTokens(reply, counter);
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
      cost: options.prices ? costOfTokens({ input: tokens.total, cachedInput: cache.cachedTokens, output: outputTokens }, options.prices) : null,
      recallRisks: recall ? recallRisks(messages, firstNew, at, built.messages, fates) : [],
    });
    const processed = built.trace.steps.at(-1)?.historyAfter ?? built.assembly.candidate;
    counter.countMessage(reply);
    carried = [...processed, reply];
    consumed = at + 1;
    previous = { messages: built.messages, tools: built.tools, members: new Set(built.messages) };
    options.onProgress?.({ done: call + 1, total: points.length });
  }
  return { policy, encoding: policy.encoding, calls, totals: totalsOf(calls, options.prices !== undefined && options.prices !== null) };
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function indexMessages(messages: readonly Message[]): Map<Message, number> {
  const index = new Map<Message, number>();
  messages.forEach((message, position) => {
    if (!index.has(message)) index.set(message, position);
  });
  return index;
}

/** RP3: system, tools, older history and the turns since the previous call; they add up to the verdict's total. */
function tokensOf(request: readonly Message[], verdict: { system: number; tools: number; history: number; total: number }, newTurns: ReadonlySet<Message>, counter: TiktokenCounter): CallTokens {
  let fresh = 0;
  for (const message of request) if (newTurns.has(message)) fresh += counter.countMessage(message);
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

/** Two messages a provider renders the same way. */
function sameMessage(a: Message, b: Message): boolean {
  if (a === b) return true;
  return (
    a.role === b.role &&
    a.content === b.content &&
    a.name === b.name &&
    a.tool_call_id === b.tool_call_id &&
    JSON.stringify(a.tool_calls ?? null) === JSON.stringify(b.tool_calls ?? null) &&
    JSON.stringify(a.parts ?? null) === JSON.stringify(b.parts ?? null)
  );
}

function sameTools(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  return a === b || (a.length === b.length && a.every((tool, index) => tool === b[index] || JSON.stringify(tool) === JSON.stringify(b[index])));
}

/**
 * RP5: the prompt cache holds the previous request; this one reads from it
 * the leading part they share (tools first, then messages). The cache breaks
 * when the previous request is not a prefix of this one: the processors whose
 * edits reached into what was sent before broke it.
 */
function cacheOf(previous: SentRequest | null, request: readonly Message[], tools: readonly ToolDefinition[], steps: readonly TraceStep[], counter: TiktokenCounter): CallCache {
  if (previous === null) return { cachedTokens: 0, sharedMessages: 0, broken: false };
  if (!sameTools(previous.tools, tools)) return { cachedTokens: 0, sharedMessages: 0, broken: true, brokenAt: -1, brokenBy: breakers(previous, steps) };
  let shared = 0;
  let cachedTokens = counter.countTools(tools);
  while (shared < previous.messages.length && shared < request.length && sameMessage(previous.messages[shared], request[shared])) {
    cachedTokens += counter.countMessage(request[shared]);
    shared += 1;
  }
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
  return { processor: step.processor, messagesBefore: step.messagesBefore, messagesAfter: step.messagesAfter, tokensBefore: step.tokensBefore, tokensAfter: step.tokensAfter, effects };
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
 * RP8: each user turn since the previous call, and the recorded reply, may
 * mention something an earlier message held. When that earlier message is
 * one the policy had taken out and nothing the request carries before the
 * mention holds the text, the call is flagged: a signal, not a proof.
 */
function recallRisks(messages: readonly Message[], firstNew: number, at: number, request: readonly Message[], fates: ReadonlyMap<number, Fate>): RecallRisk[] {
  if (fates.size === 0) return [];
  const risks: RecallRisk[] = [];
  const seen = new Set<string>();
  let known: { text: string; ends: number[]; positions: Map<Message, number> } | null = null;
  for (let turn = firstNew; turn <= at; turn += 1) {
    const message = messages[turn];
    if (message.role !== "user" && message.role !== "assistant") continue;
    for (const mention of mentionsOf(message)) {
      if (seen.has(mention.text)) continue;
      const source = lostSource(messages, mention.text, turn, fates);
      if (source === undefined) continue;
      known ??= knownText(request);
      // What the model could read before the mention: the request up to that turn (all of it for the reply).
      const position = known.positions.get(message);
      const limit = position === undefined ? known.text.length : known.ends[position] - searchableText(message).length - 1;
      const found = known.text.indexOf(mention.text);
      if (found !== -1 && found < limit) continue;
      seen.add(mention.text);
      const fate = fates.get(source)!;
      risks.push({ mention: mention.text, kind: mention.kind, turnIndex: turn, sourceIndex: source, lostBy: fate.kind, processor: fate.processor });
    }
  }
  return risks;
}

/** The earliest message before `turn` holding `text` that the policy had taken out, if any. */
function lostSource(messages: readonly Message[], text: string, turn: number, fates: ReadonlyMap<number, Fate>): number | undefined {
  for (let index = 0; index < turn; index += 1) if (fates.has(index) && searchableText(messages[index]).includes(text)) return index;
  return undefined;
}

/** The request's text joined, with where each message's text ends, for "is it in there before this turn". */
function knownText(request: readonly Message[]): { text: string; ends: number[]; positions: Map<Message, number> } {
  const texts = request.map(searchableText);
  const ends: number[] = [];
  let length = 0;
  for (const text of texts) {
    length += text.length + 1;
    ends.push(length);
  }
  return { text: texts.join("\n") + "\n", ends, positions: new Map(request.map((message, position) => [message, position])) };
}

function totalsOf(calls: readonly ReplayCall[], priced: boolean): ReplayTotals {
  const totals: ReplayTotals = { calls: calls.length, inputTokens: 0, cachedTokens: 0, outputTokens: 0, cost: priced ? { ...ZERO_COST } : null, cacheHitShare: 0, cacheBreaks: 0, budgetStops: 0, riskyCalls: 0 };
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
