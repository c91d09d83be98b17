import "server-only";
import { contentText, extractiveSummarizer, type Message, type Summarizer, type SummarizerOptions } from "@/lib/context";
import type { UpstreamConfig } from "@/lib/upstream";
import type { SummarizerReport } from "./types";
import { callUpstream } from "./upstream";

const INSTRUCTIONS = {
  conversation:
    "You write the memory of an AI assistant's conversation. Summarize the messages you are given so the assistant can continue " +
    "without them: the user's goals and constraints, facts and identifiers established (names, ids, numbers, dates), decisions made, " +
    "tool calls that matter with their results, and what is still open. Be concise and factual; write plain text, no preamble.",
  "tool-chain":
    "You summarize a chain of tool calls an AI assistant made. For each call give the tool, its key arguments and what it returned " +
    "(keep ids, numbers and dates exact), then what the chain concluded. Be concise; write plain text, no preamble.",
} as const;

/** The messages as a plain transcript the summarizing model reads as data, not as a conversation to continue. */
export function transcriptOf(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      const text = contentText(message);
      if (message.role === "tool") return `tool result (${message.name ?? message.tool_call_id ?? "?"}): ${text}`;
      const calls = (message.tool_calls ?? []).map((call) => `\n  calls ${call.function.name}(${call.function.arguments})`).join("");
      return `${message.role}: ${text}${calls}`;
    })
    .join("\n");
}

/** The summarization request: instructions by purpose, the previous summary to extend, the transcript. */
export function summaryRequest(model: string, messages: readonly Message[], options: SummarizerOptions = {}): Record<string, unknown> {
  const purpose = options.purpose ?? "conversation";
  const previous = options.previousSummary
    ? `An earlier summary covers what came before these messages. Write one new summary that stands for both: the earlier summary and the new messages.\n\nEarlier summary:\n${options.previousSummary}\n\n`
    : "";
  return {
    model,
    messages: [
      { role: "system", content: INSTRUCTIONS[purpose] },
      { role: "user", content: `${previous}Messages to summarize:\n${transcriptOf(messages)}` },
    ],
    stream: false,
  };
}

/** A summarizer for one chat call, and what it did. */
export interface RecorderSummarizer {
  summarizer: Summarizer;
  report: SummarizerReport;
}

/**
 * The summarizer `recordMessages` and `assemblePrompt` get: the upstream's
 * model when one is configured (a chat completion with a summarization
 * prompt), the engine's `extractiveSummarizer` otherwise. An upstream call
 * that fails falls back to the extractive summary, noted in the report, so a
 * turn is never lost to a summary.
 */
export function createRecorderSummarizer(upstream: UpstreamConfig | null, model: string, signal?: AbortSignal): RecorderSummarizer {
  const report: SummarizerReport = { kind: upstream ? "upstream" : "extractive", calls: 0, fallbacks: [] };
  const summarizer: Summarizer = async (messages, options) => {
    report.calls += 1;
    if (!upstream) return extractiveSummarizer(messages, options);
    const result = await callUpstream(upstream, summaryRequest(model, messages, options), { signal });
    const text = result.ok ? result.outcome.reply?.content?.trim() : undefined;
    if (text) return text;
    const reason = result.ok ? "the upstream's summary was empty" : `${result.error.status} ${result.error.type}: ${result.error.message}`;
    report.fallbacks.push({ reason });
    return extractiveSummarizer(messages, options);
  };
  return { summarizer, report };
}
