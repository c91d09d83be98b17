import { freezeCached } from "../checks";
import type { JsonSchema, Message, ToolDefinition } from "../messages";
import { DEFAULT_ENCODING, encodingForModel, type EncodingName } from "./encoding-names";
import { getTextEncoder, LONG_TEXT_LENGTH, type TextEncoder } from "./encodings";
import { partTokens, type MediaRule } from "./media";

import { TOKENS_PER_MESSAGE, TOKENS_PER_NAME, TOKENS_TO_PRIME_REPLY } from "./accounting";

/** OpenAI cookbook constants (E-T1): every message costs 3, a name 1 more, the reply is primed with 3. */
export { TOKENS_PER_MESSAGE, TOKENS_PER_NAME, TOKENS_TO_PRIME_REPLY };

/** The cookbook's `num_tokens_for_tools` constants per model family (E-T3). */
interface ToolTokenConstants {
  functionStart: number;
  propertiesStart: number;
  propertyKey: number;
  enumStart: number;
  enumItem: number;
  functionsEnd: number;
}

const TOOL_TOKENS: Readonly<Record<EncodingName, ToolTokenConstants>> = {
  // gpt-3.5-turbo and gpt-4
  cl100k_base: { functionStart: 10, propertiesStart: 3, propertyKey: 3, enumStart: -3, enumItem: 3, functionsEnd: 12 },
  // gpt-4o, gpt-4o-mini and later
  o200k_base: { functionStart: 7, propertiesStart: 3, propertyKey: 3, enumStart: -3, enumItem: 3, functionsEnd: 12 },
};

/**
 * Options of `TiktokenCounter`: an encoding, or a model whose encoding is
 * looked up; `mediaRule` names whose rule counts images, audio and documents
 * (the provider of the model; default OpenAI's).
 */
export type TiktokenCounterOptions = ({ encoding?: EncodingName; model?: undefined } | { model: string; encoding?: undefined }) & { mediaRule?: MediaRule };

/**
 * Exact token counts on tiktoken's encodings, with OpenAI's chat accounting.
 * Per-message counts are cached by message identity, so re-counting a history
 * after one appended message encodes only that message.
 * @example new TiktokenCounter({ model: "gpt-4o" }).countMessages(history)
 */
export class TiktokenCounter {
  readonly encoding: EncodingName;
  readonly mediaRule: MediaRule;
  /** What tells counts of this counter from another's: `<encoding>:<media rule>`. */
  readonly key: string;
  private readonly encoder: TextEncoder;
  private readonly messageCounts = new WeakMap<Message, number>();
  /** Counts of messages the processors wrote (chain and conversation summaries, offload markers): few, and reused run after run. */
  private readonly writtenCounts = new WeakMap<Message, number>();
  private readonly toolCounts = new WeakMap<readonly ToolDefinition[], number>();

  constructor(options: TiktokenCounterOptions = {}) {
    this.encoding = options.model !== undefined ? encodingForModel(options.model) : (options.encoding ?? DEFAULT_ENCODING);
    this.encoder = getTextEncoder(this.encoding);
    this.mediaRule = options.mediaRule ?? "openai";
    this.key = `${this.encoding}:${this.mediaRule}`;
  }

  /** Tokens of plain text; never throws on special-token text (E-T2). */
  countText(text: string | null | undefined): number {
    return text ? this.encoder.count(text) : 0;
  }

  /** `countText` in steps, awaiting `pause` between them (E-T10). */
  countTextInSteps(text: string | null | undefined, pause: () => Promise<void>): Promise<number> {
    return text ? this.encoder.countInSteps(text, pause) : Promise.resolve(0);
  }

  /** Token ids of plain text. */
  encode(text: string): number[] {
    return this.encoder.encode(text);
  }

  /** One message's tokens: 3, its role, content, name (+1), tool call id, and each tool call's name and arguments (E-T1); cached by identity (E-T6). */
  countMessage(message: Message): number {
    return this.messageCounts.get(message) ?? this.measureInto(this.messageCounts, message);
  }

  /**
   * `countMessage` without adding to the cache (a cached count is still
   * used): for messages whose count a history index keeps, so a warm run
   * never grows the cache's WeakMap, which V8 rehashes, at a cost of
   * milliseconds, on the first insertion after a collection emptied much of it.
   */
  countMessageUncached(message: Message): number {
    return this.messageCounts.get(message) ?? this.measure(message);
  }

  /**
   * The count of a message a processor wrote, cached apart from the messages
   * given to the engine: the same summary or marker stands in every run's
   * output while it is kept, so it is encoded once, and this small cache never
   * rehashes the large one.
   */
  countWritten(message: Message): number {
    return this.messageCounts.get(message) ?? this.writtenCounts.get(message) ?? this.measureInto(this.writtenCounts, message);
  }

  /**
   * `countMessage` that counts the message's long texts in steps, awaiting
   * `pause` between them (E-T10): a server counting a 1M-character message
   * lets other requests run meanwhile. The count is `countMessage`'s, and is
   * cached as it caches.
   * @example await counter.countMessageInSteps(message, () => new Promise((resolve) => setImmediate(resolve)))
   */
  async countMessageInSteps(message: Message, pause: () => Promise<void>): Promise<number> {
    const cached = this.messageCounts.get(message);
    if (cached !== undefined) return cached;
    const long: string[] = [];
    // The message's texts, found by the walk that counts them; each long one is counted in steps and its count kept.
    this.measureWith(message, (text) => {
      if (text && text.length >= LONG_TEXT_LENGTH) long.push(text);
      return 0;
    });
    for (const text of long) await this.encoder.countInSteps(text, pause);
    return this.countMessage(message);
  }

  /** Measures a message and caches its count in `counts`. */
  private measureInto(counts: WeakMap<Message, number>, message: Message): number {
    const tokens = this.measure(message);
    // E-T7: the count is keyed by identity; with development checks on, an in-place edit now throws.
    counts.set(freezeCached(message), tokens);
    return tokens;
  }

  /** The cached count of a message, if it has one: nothing is encoded. */
  cachedCount(message: Message): number | undefined {
    return this.messageCounts.get(message);
  }

  /** The count itself (E-T1), media parts by the provider's rule (F-M7). */
  private measure(message: Message): number {
    return this.measureWith(message, (text) => this.countText(text));
  }

  /** E-T1's sum over a message's texts, each counted by `countText`. */
  private measureWith(message: Message, countText: (text: string | null | undefined) => number): number {
    let tokens = TOKENS_PER_MESSAGE + countText(message.role) + countText(message.content);
    if (message.name !== undefined) tokens += TOKENS_PER_NAME + countText(message.name);
    if (message.tool_call_id !== undefined) tokens += countText(message.tool_call_id);
    for (const call of message.tool_calls ?? []) {
      tokens += countText(call.function.name) + countText(call.function.arguments);
    }
    // F-M7: parts beyond the text (media by the provider's rule, reasoning and refusals as text).
    for (const part of message.parts ?? []) tokens += partTokens(part, this.mediaRule, countText).tokens;
    return tokens;
  }

  /** Every message's tokens, in order. */
  countEach(messages: readonly Message[]): number[] {
    return messages.map((message) => this.countMessage(message));
  }

  /** A request's message tokens, reply priming included; an empty list costs nothing. */
  countMessages(messages: readonly Message[]): number {
    if (messages.length === 0) return 0;
    let total = TOKENS_TO_PRIME_REPLY;
    for (const message of messages) total += this.countMessage(message);
    return total;
  }

  /** Tool definitions' tokens by the cookbook's `num_tokens_for_tools` rule (E-T3); cached by the list's identity, as messages are (E-T6). */
  countTools(tools: readonly ToolDefinition[] | undefined): number {
    if (!tools || tools.length === 0) return 0;
    let total = this.toolCounts.get(tools);
    if (total === undefined) {
      total = this.measureTools(tools);
      this.toolCounts.set(freezeCached(tools), total);
    }
    return total;
  }

  private measureTools(tools: readonly ToolDefinition[]): number {
    const constants = TOOL_TOKENS[this.encoding];
    let total = 0;
    for (const tool of tools) {
      const fn = tool.function;
      total += constants.functionStart;
      total += this.countText(`${fn.name}:${stripFinalPeriod(fn.description ?? "")}`);
      const properties = Object.entries(fn.parameters?.properties ?? {});
      if (properties.length > 0) {
        total += constants.propertiesStart;
        for (const [key, property] of properties) total += this.countProperty(key, property, constants);
      }
    }
    return total + constants.functionsEnd;
  }

  private countProperty(key: string, property: JsonSchema, constants: ToolTokenConstants): number {
    let tokens = constants.propertyKey;
    if (Array.isArray(property.enum)) {
      tokens += constants.enumStart;
      for (const item of property.enum) tokens += constants.enumItem + this.countText(String(item));
    }
    const type = Array.isArray(property.type) ? property.type.join(",") : (property.type ?? "");
    return tokens + this.countText(`${key}:${type}:${stripFinalPeriod(property.description ?? "")}`);
  }
}

function stripFinalPeriod(text: string): string {
  return text.endsWith(".") ? text.slice(0, -1) : text;
}

const sharedCounters = new Map<string, TiktokenCounter>();

/** One counter per encoding and media rule, shared so every processor and trace step reuses its cache. */
export function sharedCounter(encoding: EncodingName = DEFAULT_ENCODING, mediaRule: MediaRule = "openai"): TiktokenCounter {
  const key = `${encoding}:${mediaRule}`; // TiktokenCounter.key
  let counter = sharedCounters.get(key);
  if (!counter) {
    counter = new TiktokenCounter({ encoding, mediaRule });
    sharedCounters.set(key, counter);
  }
  return counter;
}
