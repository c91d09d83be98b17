import type { Context } from "../context";
import { findToolChains, TOOL_CHAIN_SUMMARY_PREFIX, type Message } from "../messages";
import { ContextProcessor, type MessageEffect, type ProcessorResult } from "../pipeline";
import { STATE_KEYS } from "../state";
import type { Summarizer } from "../summarizer";

export interface DialogueCompressorOptions {
  summarizer: Summarizer;
  /** Chains with fewer messages than this stay as they are (default 2: a call and its result). */
  minChainLength?: number;
  name?: string;
}

/**
 * Replaces every closed tool chain with one assistant message holding the
 * summarizer's text (C1). The chain of an incomplete round stays: the model is
 * still inside it (C2). Whole chains go, so no tool pair is ever split (P1).
 * @example pipeline.register(new DialogueCompressor({ summarizer: extractiveSummarizer }))
 */
export class DialogueCompressor extends ContextProcessor {
  readonly minChainLength: number;
  private readonly summarizer: Summarizer;

  constructor(options: DialogueCompressorOptions) {
    super("pre_llm_call", { name: options.name ?? "dialogue_compressor" });
    if (typeof options?.summarizer !== "function") throw new TypeError("DialogueCompressor needs a summarizer function");
    this.summarizer = options.summarizer;
    this.minChainLength = Math.max(1, options.minChainLength ?? 2);
  }

  async process(ctx: Context): Promise<ProcessorResult> {
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    const chains = findToolChains(history).filter((chain) => chain.closed && chain.end - chain.start >= this.minChainLength);
    if (chains.length === 0) return {};
    // Cached summaries resolve synchronously: awaiting thousands of promises on a re-run costs more than the work.
    const pending = chains.map((chain) => this.cached(history, chain.start, chain.end) ?? this.summarize(history.slice(chain.start, chain.end)));
    const summaries = pending.some((entry) => entry instanceof Promise) ? await Promise.all(pending) : (pending as Message[]);
    const next: Message[] = [];
    const effects: MessageEffect[] = [];
    let cursor = 0;
    chains.forEach((chain, position) => {
      for (let index = cursor; index < chain.start; index += 1) next.push(history[index]);
      next.push(summaries[position]);
      effects.push({ kind: "compressed", before: range(chain.start, chain.end), after: [next.length - 1] });
      cursor = chain.end;
    });
    for (let index = cursor; index < history.length; index += 1) next.push(history[index]);
    ctx.state.set(STATE_KEYS.history, next);
    return { effects };
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
    const summary: Message = { role: "assistant", content: text.startsWith(TOOL_CHAIN_SUMMARY_PREFIX) ? text : `${TOOL_CHAIN_SUMMARY_PREFIX} ${text}` };
    cache.set(chain[0], { chain, summary });
    return summary;
  }
}

const chainSummaries = new WeakMap<Summarizer, WeakMap<Message, { chain: readonly Message[]; summary: Message }>>();

export function range(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start) }, (_, offset) => start + offset);
}
