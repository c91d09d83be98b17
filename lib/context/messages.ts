/** The canonical message: OpenAI's chat wire shape, snake_case fields. */
import type { CacheControl, ContentPart, ProviderExtras } from "./parts";

export type {
  AudioPart,
  CacheControl,
  ContentPart,
  DocumentPart,
  ImagePart,
  MediaSource,
  ProviderExtras,
  ProviderName,
  ProviderPart,
  ReasoningPart,
  RefusalPart,
  TextPart,
} from "./parts";

export type Role = "system" | "user" | "assistant" | "tool";

/** One function call an assistant message asks for. */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/**
 * One chat message as sent to the model. `content` is its text; a message
 * that holds more than text (images, audio, documents, reasoning, a refusal)
 * also carries `parts`, all of its content in order, and `content` is then the
 * text of its text parts joined by "\n".
 */
export interface Message {
  role: Role;
  content: string | null;
  /** Assistant only. */
  tool_calls?: ToolCall[];
  /** Tool only: the call this message answers. */
  tool_call_id?: string;
  name?: string;
  /** Every part of the content, in order, when it is more than text. */
  parts?: ContentPart[];
  /** A prompt-cache breakpoint after this message. */
  cache_control?: CacheControl;
  /** What a provider's format said that has no canonical field, by provider. */
  extras?: ProviderExtras;
  /** Set only by the engine, on the messages it makes: text a model writes can never set it. */
  engine?: EngineMark;
}

/**
 * What made an engine-made message (E-M2). Offloaded copies keep the mark of
 * the message they stand for; an offload marker needs none of its own, since
 * nothing decides by it (E-O2).
 */
export interface EngineMark {
  kind: EngineMarkKind;
}

/**
 * `chain-summary`: `DialogueCompressor`'s stand-in for a tool chain;
 * `conversation-summary`: `SummarizeProcessor`'s (or a saved summary's)
 * stand-in for older rounds; `retrieved-memory`: a memory the request builder
 * retrieved into the request (E-RB2).
 */
export type EngineMarkKind = "chain-summary" | "conversation-summary" | "retrieved-memory";

/** A tool definition as sent in a request's `tools` field. */
export interface ToolDefinition {
  type: "function";
  function: {
    name: string;
    description?: string;
    parameters?: JsonSchema;
    /** OpenAI's strict schema adherence; `null` as an agent sent it (kept, so a tool list is written back as it came). */
    strict?: boolean | null;
  };
  /** A prompt-cache breakpoint after this tool (Anthropic). */
  cache_control?: CacheControl;
  /** What a provider's tool said that has no canonical field (a built-in tool's own definition), by provider. */
  extras?: ProviderExtras;
}

/** The slice of JSON Schema that tool definitions use. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: readonly (string | number | boolean | null)[];
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  [key: string]: unknown;
}

/** A round: a user message through the next assistant message without tool calls (E-R1). */
export interface Round {
  index: number;
  /** Index of the round's first message in the history. */
  start: number;
  /** One past the index of its last message. */
  end: number;
  /** History indices of the round's messages; system messages inside its span are not among them. */
  indices: number[];
  /** False for the last round when no final assistant answer has come yet. */
  complete: boolean;
}

/** A tool chain: a contiguous run of assistant tool calls and their results (E-R3). */
export interface ToolChain {
  start: number;
  end: number;
  /** The round the chain belongs to. */
  round: number;
  /** True once an assistant message without tool calls follows it. */
  closed: boolean;
}

/** True for an assistant message that asks for at least one tool call. */
export function isToolCallMessage(message: Message): boolean {
  return message.role === "assistant" && (message.tool_calls?.length ?? 0) > 0;
}

/** Content prefix of the message `DialogueCompressor` leaves in place of a tool chain: what the model reads, never what the engine decides by (E-M2). */
export const TOOL_CHAIN_SUMMARY_PREFIX = "[Tool chain summary]";

/** Content prefix of the system message `SummarizeProcessor` leaves in place of older rounds: for the model to read (E-M2). */
export const CONVERSATION_SUMMARY_PREFIX = "[Conversation Summary]";

/**
 * True for what is left of a compressed tool chain: it stands for tool calls,
 * so it ends no round (E-R1). Recognised by its engine mark, never by its text
 * (E-M2): a model answer that starts with the same prefix is an answer.
 */
export function isChainSummary(message: Message): boolean {
  return message.role === "assistant" && message.engine?.kind === "chain-summary" && !isToolCallMessage(message);
}

/** True for the system message a conversation summary left (E-SU2), by its engine mark (E-M2). */
export function isConversationSummary(message: Message): boolean {
  return message.role === "system" && message.engine?.kind === "conversation-summary";
}

/** True for a summary the engine wrote: its own text, which the budget may shorten or drop (E-B5). */
export function isEngineSummary(message: Message): boolean {
  return isChainSummary(message) || isConversationSummary(message);
}

/** True for the assistant message that ends a round: one without tool calls (E-R1). */
export function isFinalAnswer(message: Message): boolean {
  return message.role === "assistant" && !isToolCallMessage(message) && !isChainSummary(message);
}

/**
 * Splits a history into rounds (E-R1). Messages before the first user message
 * open a round of their own; system messages belong to no round.
 */
export function splitRounds(history: readonly Message[]): Round[] {
  const rounds: Round[] = [];
  let current: Round | undefined;
  history.forEach((message, index) => {
    if (message.role === "system") return;
    // E-R1: a round opens at the first non-system message after a final answer (normally a user turn).
    if (current === undefined || current.complete) {
      current = { index: rounds.length, start: index, end: index + 1, indices: [], complete: false };
      rounds.push(current);
    }
    current.indices.push(index);
    current.end = index + 1;
    if (isFinalAnswer(message)) current.complete = true;
  });
  return rounds;
}

/** The round each message belongs to, or -1 for system messages; one pass, no round objects. */
export function roundOfEachMessage(history: readonly Message[]): number[] {
  const owner = new Array<number>(history.length);
  let round = -1;
  let complete = true;
  for (let index = 0; index < history.length; index += 1) {
    const message = history[index];
    if (message.role === "system") {
      owner[index] = -1;
      continue;
    }
    if (complete) {
      round += 1;
      complete = false;
    }
    owner[index] = round;
    if (isFinalAnswer(message)) complete = true;
  }
  return owner;
}

/** Finds every tool chain (E-R3); a chain is closed once a final assistant answer follows it. */
export function findToolChains(history: readonly Message[]): ToolChain[] {
  const owner = roundOfEachMessage(history);
  let lastFinalAnswer = -1;
  history.forEach((message, index) => {
    if (isFinalAnswer(message)) lastFinalAnswer = index;
  });
  const chains: ToolChain[] = [];
  let index = 0;
  while (index < history.length) {
    if (!isToolCallMessage(history[index])) {
      index += 1;
      continue;
    }
    const start = index;
    while (index < history.length && (isToolCallMessage(history[index]) || history[index].role === "tool")) index += 1;
    chains.push({ start, end: index, round: owner[start], closed: lastFinalAnswer >= index });
  }
  return chains;
}

/** The text of a message's content, `""` for null. */
export function contentText(message: Message): string {
  return message.content ?? "";
}
