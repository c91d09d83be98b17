import type { Context } from "../context";
import { ContextError } from "../errors";
import { applyEdits } from "../history/edit";
import { indexOf } from "../history/index-of";
import { isFinalAnswer, isToolCallMessage, TOOL_CHAIN_SUMMARY_PREFIX, type Message } from "../messages";
import { ContextProcessor, type MessageEffect, type ProcessorResult, type ProcessorRun } from "../pipeline";
import { STATE_KEYS } from "../state";
import type { Summarizer } from "../summarizer";
import type { TiktokenCounter } from "../tokens/counter";
import { resolveCounter } from "../tokens/resolve";
import { identity, OutcomeCache } from "./outcome-cache";

export interface DialogueCompressorOptions {
  summarizer: Summarizer;
  /** Chains with fewer messages than this stay as they are (default 2: a call and its result). */
  minChainLength?: number;
  name?: string;
}

/**
 * Replaces every closed tool chain with one assistant message holding the
 * summarizer's text (E-C1), unless the summary is not shorter than the chain
 * (E-C3). The chain of an incomplete round stays: the model is
 * still inside it (E-C2). Whole chains go, so no tool pair is ever split (E-P1).
 * Rounds a later window drops are left as they are (E-PL5); it can run on the
 * window's output (E-PL7).
 * @example pipeline.register(new DialogueCompressor({ summarizer: extractiveSummarizer }))
 */
export class DialogueCompressor extends ContextProcessor {
  override readonly preservesRounds = true;
  override readonly runsOnWindow = true;
  readonly minChainLength: number;
  private readonly summarizer: Summarizer;

  constructor(options: DialogueCompressorOptions) {
    super("pre_llm_call", { name: options.name ?? "dialogue_compressor" });
    if (typeof options?.summarizer !== "function")
      throw new ContextError("DialogueCompressor needs a summarizer function: pass { summarizer: extractiveSummarizer } or your own", { where: "summarizer" });
    this.summarizer = options.summarizer;
    this.minChainLength = Math.max(1, options.minChainLength ?? 2);
  }

  async process(ctx: Context, _payload?: object, run: ProcessorRun = {}): Promise<ProcessorResult> {
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    // E-PL5: rounds a later window drops are left as they are; compressing them would be work for nothing.
    const from = run.roundsKeptLater === undefined ? 0 : indexOf(history).startOfLastRounds(run.roundsKeptLater);
    const counter = resolveCounter(ctx.config);
    const key = `${this.minChainLength}:${from}:${identity(this.summarizer)}:${counter.encoding}:${counter.mediaRule}`;
    const outcome = outcomes.get(history, key) ?? outcomes.set(history, key, await this.compress(history, from, counter));
    if (outcome.history === history) return {};
    ctx.state.set(STATE_KEYS.history, outcome.history);
    return { effects: outcome.effects };
  }

  private async compress(history: readonly Message[], from: number, counter: TiktokenCounter): Promise<Outcome> {
    const closed = closedChains(history, from, this.minChainLength);
    if (closed.length === 0) return { history, effects: [] };
    // Cached summaries resolve synchronously: awaiting thousands of promises on a re-run costs more than the work.
    const pending = closed.map((chain) => this.cached(history, chain.start, chain.end) ?? this.summarize(history.slice(chain.start, chain.end)));
    const summaries = pending.some((entry) => entry instanceof Promise) ? await Promise.all(pending) : (pending as Message[]);
    // E-C3: a summary that is not shorter than its chain would only add tokens; the chain stays as it was.
    const index = indexOf(history);
    const chains = closed
      .map((chain, order) => ({ ...chain, summary: summaries[order] }))
      .filter((chain) => counter.countMessage(chain.summary) < index.tokensBefore(counter, chain.end) - index.tokensBefore(counter, chain.start));
    if (chains.length === 0) return { history, effects: [] };
    const edits = chains.map((chain) => ({ from: chain.start, to: chain.end, messages: [chain.summary] }));
    const { history: next, placed } = applyEdits(history, edits);
    const effects = chains.map(
      (chain, order): MessageEffect => ({ kind: "compressed", before: [[chain.start, chain.end]], after: [[placed[order], placed[order] + 1]] }),
    );
    return { history: next, effects };
  }

  /**
   * The summary message of a chain. Re-runs over the same message objects
   * reuse it: the summarizer may be a paid model call, and a stable message
   * object keeps its token count cached.
   */
  private cached(history: readonly Message[], start: number, end: number): Message | undefined {
    const known = chainSummaries.get(this.summarizer)?.get(history[start]);
    if (!known || known.chain.length !== end - start) return undefined;
    for (let index = start; index < end; index += 1) if (known.chain[index - start] !== history[index]) return undefined;
    return known.summary;
  }

  private async summarize(chain: readonly Message[]): Promise<Message> {
    let cache = chainSummaries.get(this.summarizer);
    if (!cache) {
      cache = new WeakMap();
      chainSummaries.set(this.summarizer, cache);
    }
    const text = (await this.summarizer(chain, { purpose: "tool-chain" })).trim();
    const content = text.startsWith(TOOL_CHAIN_SUMMARY_PREFIX) ? text : `${TOOL_CHAIN_SUMMARY_PREFIX} ${text}`;
    // E-M2: the mark, not the prefix, is what makes it a chain summary (E-R1).
    const summary: Message = { role: "assistant", content, engine: { kind: "chain-summary" } };
    cache.set(chain[0], { chain, summary });
    return summary;
  }
}

const chainSummaries = new WeakMap<Summarizer, WeakMap<Message, { chain: readonly Message[]; summary: Message }>>();

interface Outcome {
  history: readonly Message[];
  effects: MessageEffect[];
}

const outcomes = new OutcomeCache<Outcome>();

/**
 * The closed tool chains (E-R3) of at least `minLength` messages starting at or
 * after `from`, a round boundary (no chain crosses one: a round ends with a
 * final answer, which no chain holds).
 */
function closedChains(history: readonly Message[], from: number, minLength: number): { start: number; end: number }[] {
  let lastFinal = -1;
  for (let position = history.length - 1; position >= from && lastFinal === -1; position -= 1) if (isFinalAnswer(history[position])) lastFinal = position;
  const chains: { start: number; end: number }[] = [];
  let position = from;
  while (position < lastFinal) {
    if (!isToolCallMessage(history[position])) {
      position += 1;
      continue;
    }
    const start = position;
    while (position < history.length && (isToolCallMessage(history[position]) || history[position].role === "tool")) position += 1;
    // E-C1/E-C2: closed once a final answer follows; the open chain of the incomplete round stays.
    if (lastFinal >= position && position - start >= minLength) chains.push({ start, end: position });
  }
  return chains;
}
