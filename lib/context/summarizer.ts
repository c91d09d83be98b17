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
  return limit(`${header}\n${lines.join("\n")}${conclusion}`);
}

/** The deterministic text of a conversation's summary: what each turn asked and answered, which tools ran. */
export function summarizeConversation(messages: readonly Message[], previousSummary?: string): string {
  const lines: string[] = [];
  // The earlier summary is carried whole; `limit` trims the oldest lines only when the total grows too long.
  if (previousSummary) lines.push(...previousSummary.split("\n").filter((line) => line.trim() !== ""));
  let toolCalls: string[] = [];
  const flushTools = () => {
    if (toolCalls.length === 0) return;
    lines.push(`  tools: ${summarizeNames(toolCalls)}`);
    toolCalls = [];
  };
  for (const message of messages) {
    if (message.role === "user") {
      flushTools();
      lines.push(`- user: ${head(contentText(message), TEXT_HEAD)}`);
    } else if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) toolCalls.push(call.function.name);
      if (message.content) {
        flushTools();
        lines.push(`  assistant: ${head(message.content, TEXT_HEAD)}`);
      }
    } else if (message.role === "system" && message.content) {
      lines.push(`- note: ${head(message.content, TEXT_HEAD)}`);
    }
  }
  flushTools();
  return limit(lines.join("\n"));
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

// Keeps the first line (the header) and the most recent lines: they matter most to the next call.
function limit(text: string): string {
  if (text.length <= MAX_SUMMARY_CHARS) return text;
  const lines = text.split("\n");
  const kept: string[] = [];
  let size = lines[0].length + 40;
  for (let index = lines.length - 1; index > 0 && size + lines[index].length + 1 <= MAX_SUMMARY_CHARS; index -= 1) {
    kept.unshift(lines[index]);
    size += lines[index].length + 1;
  }
  return [lines[0], `… ${lines.length - 1 - kept.length} earlier lines omitted`, ...kept].join("\n");
}
