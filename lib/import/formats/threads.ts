/**
 * Logs that record one model call an entry (OpenTelemetry spans, Helicone
 * rows) repeat the conversation so far in every call's prompt. Taken in time
 * order, a call whose prompt continues a conversation adds the messages it
 * sent and its answer to it; a call that continues none starts one of its own
 * (a subagent's, another chain's), so no message is lost.
 */
import type { Message } from "@/lib/context/messages";
import type { CallFacts } from "@/lib/formats";
import { formatPath, type JsonPath } from "../issues";
import type { ImportWarning } from "../types";

/** One logged call: its prompt and answer in canonical messages, and what is known of it. */
export interface LoggedCall {
  input: Message[];
  output: Message[];
  /** Warnings of reading the call, `messageIndex` counted over its input followed by its output. */
  warnings: ImportWarning[];
  /** Facts of the messages the call sent (when it was sent). */
  sent?: CallFacts;
  /** Facts of its answer; only the answer's first message gets the usage (IM-10). */
  answer: CallFacts;
  /** How a warning names the call ("span openai.chat", "request 7f3c…"). */
  label: string;
  path: JsonPath;
}

/** A conversation assembled from calls. */
export interface CallThread<T extends LoggedCall> {
  messages: Message[];
  facts: (CallFacts | undefined)[];
  warnings: ImportWarning[];
  calls: T[];
}

/** What a later call must repeat of an earlier message: its role, text, calls and the call it answers (not signatures or spellings). */
function looseKey(message: Message): string {
  const calls = (message.tool_calls ?? []).map((call) => [call.id, call.function.name]);
  return JSON.stringify([message.role, (message.content ?? "").trim(), calls, message.tool_call_id ?? null]);
}

function continues(messages: readonly Message[], input: readonly Message[]): boolean {
  return messages.length <= input.length && messages.every((message, index) => looseKey(message) === looseKey(input[index]));
}

/** The calls (in time order) as conversations; the first is the one the first call started. */
export function assembleCalls<T extends LoggedCall>(calls: readonly T[], kind: string): CallThread<T>[] {
  const threads: CallThread<T>[] = [];
  for (const call of calls) {
    const found = threads.filter((thread) => continues(thread.messages, call.input)).sort((left, right) => right.messages.length - left.messages.length)[0];
    const thread = found ?? { messages: [], facts: [], warnings: [], calls: [] };
    if (found === undefined && threads.length > 0)
      threads[0].warnings.push({
        code: "sidechain",
        message: `${call.label} sent a prompt that continues no conversation of the ${kind} before it: imported as a conversation of its own`,
        path: formatPath(call.path),
      });
    if (found === undefined) threads.push(thread);
    addCall(thread, call);
  }
  for (const thread of threads)
    if (thread.calls.length > 1)
      thread.warnings.push({
        code: "lines-merged",
        message: `${thread.calls.length} ${kind}, each repeating the conversation so far, were read as one conversation: each added the messages it sent and its answer`,
        path: formatPath(thread.calls[0].path),
      });
  return threads;
}

function addCall<T extends LoggedCall>(thread: CallThread<T>, call: T): void {
  // Messages the thread holds already were read (and warned about) with an earlier call.
  const repeated = thread.messages.length;
  for (const warning of call.warnings) {
    if (warning.messageIndex !== undefined && warning.messageIndex < repeated) continue;
    if (warning.messageIndex === undefined && thread.warnings.some((known) => known.message === warning.message && known.path === warning.path)) continue;
    thread.warnings.push(warning);
  }
  for (const message of call.input.slice(repeated)) {
    thread.messages.push(message);
    thread.facts.push(call.sent);
  }
  const { usage: _usage, ...withoutUsage } = call.answer;
  call.output.forEach((message, index) => {
    thread.messages.push(message);
    const facts = index === 0 ? call.answer : withoutUsage;
    thread.facts.push(Object.keys(facts).length === 0 ? undefined : facts);
  });
  thread.calls.push(call);
}
