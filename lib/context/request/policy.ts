import { makeConfig, type AutomationMode, type ContextConfig } from "../config";
import type { PipelineDependencies } from "../default-pipeline";
import type { ProcessorKind, ProcessorSpec, ProcessorTuning } from "../pipeline-spec";
import type { EncodingName } from "../tokens/encoding-names";
import { sharedCounter, type TiktokenCounter } from "../tokens/counter";
import type { MediaRule } from "../tokens/media";

/**
 * Everything that decides the next request, as plain data: the mode's
 * rounds and thresholds, the processors in order, the model with its window,
 * reply reserve and encoding, the optional hard budget, and the builder's own
 * options. Apps resolve their stored settings into one; a script writes one
 * by hand. Serialisable, so it crosses to a Web Worker and into exports.
 */
export interface RequestPolicy {
  mode: AutomationMode;
  historyRounds: number;
  summaryThreshold: number | null;
  offloadThreshold: number | null;
  /** Characters a message may hold before the message offloader replaces it. */
  maxMessageSize: number;
  /** Characters a tool result may hold before the tool-result offloader truncates it. */
  maxToolResultSize: number;
  /** The processors in the order they run, each on or off. */
  processors: readonly ProcessorSpec[];
  model: string;
  encoding: EncodingName;
  /** Whose published rule counts images, audio and documents (the model's provider); default OpenAI's (E-T6). */
  mediaRule?: MediaRule;
  /** The model's input capacity. */
  contextWindow: number;
  /** Reserved for the reply and sent as its limit (`max_tokens`). */
  maxOutputTokens: number;
  /** Hard limit on everything sent (messages and tools); null: the window alone limits. */
  tokenBudget: number | null;
  /** Offer `reload_offloaded` when offloaded content is sent; off: nothing is offloaded (E-RB5). */
  reloadTool: boolean;
  /** Retrieved memories a request may carry (E-RB2). */
  retrievedMemories: number;
  /** Settings of the strategy processors (E-CS1–E-CS4); absent or partial: their defaults. */
  tuning?: ProcessorTuning;
}

/** The shared counter a policy counts with: its encoding and its model's media rule. */
export function policyCounter(policy: Pick<RequestPolicy, "encoding" | "mediaRule">): TiktokenCounter {
  return sharedCounter(policy.encoding, policy.mediaRule);
}

/**
 * E-RB9: whether the policy keeps a memory beyond the request itself: the
 * `summarize` processor's switch. Off, no summary is persisted or sent and
 * nothing is retrieved, so with every processor off the history goes as it is.
 */
export function keepsMemory(policy: Pick<RequestPolicy, "processors">): boolean {
  return policy.processors.some((entry) => entry.kind === "summarize" && entry.enabled);
}

/** The processors that shape a request: those on `pre_llm_call`. */
const PRE_CALL: ReadonlySet<ProcessorKind> = new Set([
  "message_offloader",
  "dialogue_compressor",
  "round_window",
  "summarize",
  "token_budget",
  "clear_tool_uses",
  "observation_masking",
  "auto_compact",
  "token_window",
]);

/** The engine config, processor spec and pipeline dependencies a policy stands for. */
export function policyToEngine(policy: RequestPolicy): { config: ContextConfig; spec: ProcessorSpec[]; dependencies: PipelineDependencies } {
  const config = makeConfig(policy.mode, {
    historyRounds: policy.historyRounds,
    summaryThreshold: policy.summaryThreshold,
    offloadThreshold: policy.offloadThreshold,
    extra: {
      // E-B4: the budget reaches the pipeline as `extra.token_budget` alone. Without a hard budget the window
      // is the only limit: the budget is the window, which B1 caps by the reply reserve and the tools.
      token_budget: policy.tokenBudget ?? policy.contextWindow,
      token_encoding: policy.encoding,
      token_media_rule: policy.mediaRule ?? "openai",
      context_window: policy.contextWindow,
      max_output_tokens: policy.maxOutputTokens,
    },
  });
  // E-RB5: without the reload tool a marker would point the model at content it cannot read.
  const spec = policy.processors.filter((entry) => PRE_CALL.has(entry.kind) && (policy.reloadTool || entry.kind !== "message_offloader"));
  return {
    config,
    spec,
    dependencies: {
      maxMessageSize: policy.maxMessageSize,
      maxToolResultSize: policy.maxToolResultSize,
      encoding: policy.encoding,
      // E-RB6: what the model is working on is never hidden.
      keepIncompleteRound: true,
      tuning: policy.tuning,
    },
  };
}
