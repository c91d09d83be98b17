// The public shapes of replay, compare, cost and recall risk (E-RP1–E-RP9). Plain data
// throughout: results cross from a Web Worker to the page and into exports.
import type { IndexRanges } from "../history/ranges";
import type { Message, ToolDefinition } from "../messages";
import type { MessageEffectKind } from "../pipeline";
import type { RequestPolicy } from "../request/policy";
import type { BudgetVerdict } from "../request/verdict";
import type { Summarizer } from "../summarizer";
import type { EncodingName } from "../tokens/encoding-names";
import type { CacheRules, CacheTtl, TokenPrices } from "../cost/types";

/** US dollars per million tokens: a model's prices as plain data (the app reads them from its catalogue; CC-1–CC-3). */
export type { TokenPrices } from "../cost/types";

/** Tokens of one call as a provider bills them. */
export interface BilledTokens {
  /** Every input token, cached ones included. */
  input: number;
  output: number;
  /** Of `input`, those read from the prompt cache. */
  cachedInput?: number;
  /** Of `input`, those written to the prompt cache. */
  cacheWrite?: number;
}

/** A call's cost in US dollars, split as billed (E-RP6). */
export interface CallCost {
  input: number;
  cachedInput: number;
  cacheWrite: number;
  output: number;
  total: number;
}

/** How far a replay has come. */
export interface ReplayProgress {
  /** Calls replayed so far. */
  done: number;
  /** Calls in the conversation. */
  total: number;
}

/** What `replayConversation` replays, and how. */
export interface ReplayOptions {
  /** The recorded conversation: every assistant turn is one model call (E-RP1). */
  messages: readonly Message[];
  /** The tools the agent offered on every call. */
  tools?: readonly ToolDefinition[];
  policy: RequestPolicy;
  /** Prices to cost each call with; absent or null: costs are null. */
  prices?: TokenPrices | null;
  /**
   * The model's prompt-cache rules: with them each call's cache read and
   * writes are the cache model's prediction (minimum, increment, write
   * prices: CC7, CC8) and its cost prices them; without, the prefix shared
   * with the previous request is read (E-RP5).
   */
  cache?: CacheRules | null;
  /** The TTL a replay's cache writes get (default the rules' first): what-ifs of 5 minutes against an hour. */
  cacheTtl?: CacheTtl;
  /** For the summarising processors; default: the engine's extractive summarizer. */
  summarizer?: Summarizer;
  /** Cancels the replay: it rejects with `ReplayCancelledError` at the next call. */
  signal?: AbortSignal;
  /** Called after every call, and once at the start with `done: 0`. */
  onProgress?: (progress: ReplayProgress) => void;
  /** Calls replayed between yields to the event loop at most (default 8); calls that have run 10 ms yield sooner. */
  yieldEvery?: number;
  /** Keep each call's request messages in its record (default true); false keeps big comparisons small. */
  keepMessages?: boolean;
  /** Look for recall risks (E-RP8; default true). */
  recallRisk?: boolean;
}

/** A call's input tokens by section (E-RP3); they add up to `total`. */
export interface CallTokens {
  /** The user's system messages. */
  system: number;
  /** The tool definitions sent (the reload tool included when it is sent). */
  tools: number;
  /** Everything else before the new turns: older turns as the policy left them, the engine's summaries, the reply priming. */
  history: number;
  /** The conversation's messages since the previous call: the user's turn, tool results. */
  newTurns: number;
  total: number;
}

/** Whether a call keeps the provider's prompt cache warm (E-RP5). */
export interface CallCache {
  /** Tokens of the leading part this request shares with the previous one (tools, then messages): read from the cache. */
  cachedTokens: number;
  /** Leading messages shared with the previous request. */
  sharedMessages: number;
  /** True when the previous request is not a prefix of this one: the policy rewrote what the cache held. */
  broken: boolean;
  /** Index in this request's messages where the two first differ (when broken); -1 when the tools differ. */
  brokenAt?: number;
  /** The processors that changed what was cached, in pipeline order (when broken). */
  brokenBy?: string[];
  /** With cache rules: what the cache model predicts this call reads and writes (CC-7, CC-8). */
  predicted?: { cacheRead: number; cacheWrite: number };
}

/** One processor's step of a call, in short (E-PL2). */
export interface ReplayStep {
  processor: string;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  /** Messages touched, by effect kind. */
  effects: Partial<Record<MessageEffectKind, number>>;
}

/** What one processor did to the conversation's own messages at one call (E-RP4). */
export interface ProcessorTouch {
  processor: string;
  kind: MessageEffectKind;
  /** Messages it touched (engine-made ones included). */
  messages: number;
  /** The conversation's messages among them, as ranges of conversation indices. */
  conversation: IndexRanges;
}

/** What looks like something a later turn could refer to (E-RP8). */
export type MentionKind = "id" | "file" | "number" | "quoted" | "url";

/**
 * A turn mentions something that, at this call, existed only in content the
 * policy had taken out of the request (E-RP8): a signal, not a proof.
 */
export interface RecallRisk {
  /** The text mentioned, as it appears. */
  mention: string;
  kind: MentionKind;
  /** Conversation index of the message that mentions it: a new turn of this call or the recorded answer. */
  turnIndex: number;
  /** Conversation index of the earliest message where it existed. */
  sourceIndex: number;
  /** What the policy had done to that message by this call. */
  lostBy: MessageEffectKind;
  /** The processor that did it, when known. */
  processor?: string;
}

/** One replayed model call (E-RP1). */
export interface ReplayCall {
  /** Ordinal of the call, from 0. */
  call: number;
  /** Conversation index of the recorded assistant turn this call produced. */
  at: number;
  tokens: CallTokens;
  /** The request's messages (empty when `keepMessages` is false). */
  messages: Message[];
  messageCount: number;
  /** Names of the tools sent. */
  toolNames: string[];
  steps: ReplayStep[];
  touched: ProcessorTouch[];
  verdict: BudgetVerdict;
  /** The request would not be sent (E-RB3): the budget stop. */
  stopped: boolean;
  cache: CallCache;
  /** Tokens of the recorded assistant turn (its text and tool calls). */
  outputTokens: number;
  /** Null without prices. */
  cost: CallCost | null;
  recallRisks: RecallRisk[];
}

/** A replay's sums (E-RP7). */
export interface ReplayTotals {
  calls: number;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  /** Null without prices. */
  cost: CallCost | null;
  /** `cachedTokens / inputTokens` (0 for no input). */
  cacheHitShare: number;
  /** Calls whose request broke the prompt cache. */
  cacheBreaks: number;
  /** Calls that would not be sent. */
  budgetStops: number;
  /** Calls flagged with at least one recall risk. */
  riskyCalls: number;
}

/** A whole conversation replayed under one policy. */
export interface ReplayResult {
  policy: RequestPolicy;
  encoding: EncodingName;
  calls: ReplayCall[];
  totals: ReplayTotals;
}

/** Replays a recorded conversation under a policy, one request per assistant turn (E-RP1). */
export type ReplayConversation = (options: ReplayOptions) => Promise<ReplayResult>;

/** A policy in a comparison. */
export interface ComparedPolicy {
  id: string;
  label: string;
  policy: RequestPolicy;
}

/** How far a comparison has come: the run under way and its progress. */
export interface CompareProgress extends ReplayProgress {
  /** The id of the policy being replayed. */
  policy: string;
  /** Runs finished, of `runs`. */
  finished: number;
  runs: number;
}

/** What `comparePolicies` compares. */
export interface CompareOptions extends Omit<ReplayOptions, "policy" | "onProgress"> {
  /** Up to 3 policies; raw (no processors, the first policy's model) is added first (E-RP9). */
  policies: readonly ComparedPolicy[];
  onProgress?: (progress: CompareProgress) => void;
}

/** One run's running sums after each call. */
export interface CumulativePoint {
  inputTokens: number;
  cachedTokens: number;
  /** Null without prices. */
  cost: number | null;
}

/** One policy's run in a comparison. */
export interface ComparedRun {
  id: string;
  label: string;
  replay: ReplayResult;
  /** After each call, in call order. */
  cumulative: CumulativePoint[];
  /** Against raw: input tokens and dollars saved (negative: it costs more). */
  savedTokens: number;
  savedCost: number | null;
}

/** Raw and the compared policies over the same conversation (E-RP9). */
export interface CompareResult {
  /** Raw first, then the policies in the order given. */
  runs: ComparedRun[];
  /** Conversation indices of the calls (the recorded assistant turns). */
  callPoints: number[];
}

/** Compares raw and up to 3 policies on one conversation (E-RP9). */
export type ComparePolicies = (options: CompareOptions) => Promise<CompareResult>;

/** The model settings a preset is rebased onto. */
export interface PolicyModel {
  model: string;
  encoding: EncodingName;
  contextWindow: number;
  maxOutputTokens: number;
}

/** The presets' ids. */
export type PresetId = "raw" | "observation_masking" | "clear_tool_uses" | "auto_compact" | "budget_only" | "pilot" | "copilot" | "navigator";

/** A named policy (E-RP10). */
export interface PolicyPreset {
  id: PresetId;
  label: string;
  /** One sentence, for people. */
  description: string;
  /** The policy with the default model (`gpt-4o`); `presetPolicy` rebases it. */
  policy: RequestPolicy;
}

/** Options of `policySnippet` (E-RP11). */
export interface PolicySnippetOptions {
  /** The package the snippet imports the engine from (default `@context-lab/engine`). */
  packageName?: string;
}
