import { contentText, isToolCallMessage, TOOL_CHAIN_SUMMARY_PREFIX, type Message } from "./messages";
import { countCharacters, exceedsCharacters, firstCharacters } from "./text";

/** What a summary is for; an LLM summarizer may prompt differently for each. */
export interface SummarizerOptions {
  purpose?: "tool-chain" | "conversation";
  /** The summary these messages extend, if any. */
  previousSummary?: string;
}

/** Turns messages into a short text. Injected, so the engine never calls a model itself. */
export type Summarizer = (messages: readonly Message[], options?: SummarizerOptions) => Promise<string>;

const RESULT_HEAD = 160;
const TEXT_HEAD = 200;
const ARGUMENTS_HEAD = 120;
const MAX_SUMMARY_CHARS = 4_000;

/**
 * The offline default summarizer: deterministic and extractive. For a tool
 * chain it lists each call with its arguments and the head of its result, and
 * what the chain concluded; for a conversation, what each turn asked and answered.
 * @example await extractiveSummarizer(chain, { purpose: "tool-chain" })
 */
export const extractiveSummarizer: Summarizer = async (messages, options = {}) => {
  const purpose = options.purpose ?? (messages.every((message) => message.role === "tool" || isToolCallMessage(message)) ? "tool-chain" : "conversation");
  return purpose === "tool-chain" ? summarizeToolChain(messages) : summarizeConversation(messages, options.previousSummary);
};

/** The deterministic text of a tool chain's summary, prefixed as a chain summary. */
export function summarizeToolChain(messages: readonly Message[]): string {
  const results = new Map<string, Message[]>();
  for (const message of messages) {
    if (message.role !== "tool" || message.tool_call_id === undefined) continue;
    const list = results.get(message.tool_call_id) ?? [];
    list.push(message);
    results.set(message.tool_call_id, list);
  }
  const lines: string[] = [];
  const names: string[] = [];
  let lastResult = "";
  for (const message of messages) {
    if (message.role === "assistant" && message.content) lines.push(`- noted: ${head(message.content, TEXT_HEAD)}`);
    for (const call of message.tool_calls ?? []) {
      names.push(call.function.name);
      // Ids repeat across turns (`call_0`): take results in order, once each.
      const result = results.get(call.id)?.shift();
      const text = result ? contentText(result) : "";
      if (result) lastResult = text;
      const outcome = result ? `${head(text, RESULT_HEAD)}${exceedsCharacters(text, RESULT_HEAD) ? ` (${countCharacters(text)} chars)` : ""}` : "(no result)";
      lines.push(`- ${call.function.name}(${head(call.function.arguments, ARGUMENTS_HEAD)}) → ${outcome}`);
    }
  }
  const calls = names.length === 1 ? "1 tool call" : `${names.length} tool calls`;
  const header = `${TOOL_CHAIN_SUMMARY_PREFIX} ${calls}: ${[...new Set(names)].join(", ")}.`;
  const conclusion = lastResult ? `\nConcluded: ${head(lastResult, RESULT_HEAD)}` : "";
  const summary = new SummaryLines();
  summary.add(`${header}\n${lines.join("\n")}${conclusion}`);
  return summary.limited();
}

/**
 * The deterministic text of a conversation's summary: what each turn asked
 * and answered, which tools ran. A line quoting a message is written only if
 * the summary keeps it: over 100,000 messages the summary keeps its first
 * line and the latest ones, and only those are flattened (E-SM2).
 */
export function summarizeConversation(messages: readonly Message[], previousSummary?: string): string {
  const lines = new SummaryLines();
  // The earlier summary is carried whole; `limit` trims the oldest lines only when the total grows too long.
  if (previousSummary) lines.add(previousSummary.split("\n").filter((line) => line.trim() !== ""));
  let toolCalls: string[] = [];
  const flushTools = () => {
    if (toolCalls.length === 0) return;
    lines.add(`  tools: ${summarizeNames(toolCalls)}`);
    toolCalls = [];
  };
  for (const message of messages) {
    if (message.role === "user") {
      flushTools();
      lines.quote("- user: ", () => contentText(message));
    } else if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) toolCalls.push(call.function.name);
      const content = message.content;
      if (content) {
        flushTools();
        lines.quote("  assistant: ", () => content);
      }
    } else if (message.role === "system" && message.content) {
      const content = message.content;
      lines.quote("- note: ", () => content);
    }
  }
  flushTools();
  return lines.limited();
}

function summarizeNames(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, count]) => (count > 1 ? `${name} ×${count}` : name)).join(", ");
}

/** The first `size` characters on one line, with an ellipsis when cut. */
export function head(text: string, size: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return exceedsCharacters(flat, size) ? `${firstCharacters(flat, size - 1)}…` : flat;
}

/** A line of a summary: written, or quoting a message's text, flattened to its head when first read. */
class QuotedLine {
  private written: string | undefined;

  constructor(
    private readonly prefix: string,
    private readonly text: () => string,
  ) {}

  get value(): string {
    this.written ??= `${this.prefix}${head(this.text(), TEXT_HEAD)}`;
    return this.written;
  }
}

/** A summary's lines, each one line of its text (a flattened head holds no line break). */
class SummaryLines {
  private readonly lines: (string | QuotedLine)[] = [];

  /** Lines written as they are; one holding line breaks stands for as many lines. */
  add(text: string | readonly string[]): void {
    for (const line of typeof text === "string" ? [text] : text) this.lines.push(...line.split("\n"));
  }

  /** A line quoting `text`'s head after `prefix`, written only if the summary keeps it. */
  quote(prefix: string, text: () => string): void {
    this.lines.push(new QuotedLine(prefix, text));
  }

  /**
   * The summary within MAX_SUMMARY_CHARS: whole when it fits, else its first
   * line (the header) and the most recent lines, which matter most to the
   * next call, with a note of how many were left out.
   */
  limited(): string {
    const { lines } = this;
    const at = (index: number) => {
      const line = lines[index];
      return typeof line === "string" ? line : line.value;
    };
    // Read from the front only until the text is known to be too long.
    let size = -1;
    for (let index = 0; index < lines.length && size <= MAX_SUMMARY_CHARS; index += 1) size += at(index).length + 1;
    if (size <= MAX_SUMMARY_CHARS) return lines.map((_, index) => at(index)).join("\n");
    const kept: string[] = [];
    size = at(0).length + 40;
    for (let index = lines.length - 1; index > 0 && size + at(index).length + 1 <= MAX_SUMMARY_CHARS; index -= 1) {
      kept.push(at(index));
      size += at(index).length + 1;
    }
    kept.reverse();
    return [at(0), `… ${lines.length - 1 - kept.length} earlier lines omitted`, ...kept].join("\n");
  }
}
