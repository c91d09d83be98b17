/**
 * A Letta agent's messages in the order the wire allows, with each message's
 * facts, and the eviction its in-context list records. Letta rebuilds the
 * system message when memory changes, and writes the rebuild between a
 * memory tool's call and its result: such a system message is moved after
 * the results, so the call and its result stay a pair.
 */
import type { CallFacts } from "@/lib/formats";
import { isoTime } from "@/lib/formats";
import { isRecord, type MessageScope, type PathNotes } from "../issues";
import type { ImportedCompaction } from "../types";
import { chatMessagesOf } from "./letta-messages";

type Raw = Record<string, unknown>;

/** One chat message to read, the source message it came from, and its facts. */
export interface LettaEntry {
  chat: Raw;
  origin: number;
  facts?: CallFacts;
}

/** Letta writes naive times in UTC (`2025-04-01T03:47:27.492924`). */
export function lettaTime(value: unknown): string | undefined {
  if (typeof value === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value)) return isoTime(`${value}Z`);
  return isoTime(value);
}

/** The chat messages of an agent's history, system rebuilds moved out from between calls and their results. */
export function orderHistory(messages: readonly unknown[], scope: MessageScope, notes: PathNotes, model?: string): LettaEntry[] {
  const entries: LettaEntry[] = [];
  let pending = new Set<string>();
  // System messages held back while results are due; `at` is where they stood, to tell whether results came before them.
  let held: { entries: LettaEntry[]; callId: string; at: number }[] = [];
  const release = () => {
    for (const moved of held) {
      if (entries.length > moved.at)
        scope.warn(
          "system-moved",
          `a system message (Letta's rebuild of the system prompt after a memory edit) sat between tool call ${moved.callId} and its result: moved after the result`,
          { messageIndex: entries.length, path: scope.pathOf(moved.entries[0]?.origin ?? 0) },
        );
      entries.push(...moved.entries);
    }
    held = [];
  };
  let skipped = 0;
  messages.forEach((message, origin) => {
    const path = scope.pathOf(origin);
    if (!isRecord(message)) return notes.fail(path, "a message must be an object with a role");
    const chats = chatMessagesOf(message, path, notes);
    if (chats.length === 0 && message.role === "approval") skipped += 1;
    const facts = factsOf(message, model);
    const made = chats.map((chat) => (facts === undefined ? { chat, origin } : { chat, origin, facts }));
    if (message.role === "system" && pending.size > 0) {
      held.push({ entries: made, callId: [...pending][0], at: entries.length });
      return;
    }
    if (message.role !== "tool") {
      release();
      pending = new Set(made.flatMap((entry) => callIds(entry.chat)));
    }
    for (const entry of made) {
      entries.push(entry);
      if (typeof entry.chat.tool_call_id === "string") pending.delete(entry.chat.tool_call_id);
    }
    if (message.role === "tool" && pending.size === 0) release();
  });
  release();
  if (skipped > 0)
    scope.warn(
      "entry-skipped",
      `skipped ${skipped} approval response${skipped === 1 ? "" : "s"} (the user's decision on a tool call): Letta does not send them; the tool result that follows says what was decided`,
    );
  return entries;
}

function callIds(chat: Raw): string[] {
  if (!Array.isArray(chat.tool_calls)) return [];
  return chat.tool_calls.flatMap((call: unknown) => (isRecord(call) && typeof call.id === "string" ? [call.id] : []));
}

function factsOf(message: Raw, model: string | undefined): CallFacts | undefined {
  const facts: CallFacts = {};
  const at = lettaTime(message.created_at);
  if (at !== undefined) facts.at = at;
  const answered = message.role === "assistant" || (message.role === "approval" && Array.isArray(message.tool_calls));
  const name = typeof message.model === "string" ? message.model : model;
  if (answered && name !== undefined) facts.model = name;
  return Object.keys(facts).length === 0 ? undefined : facts;
}

/** What the in-context list says was taken out of the model's context: a compaction where later messages remain, and the warning that tells it. */
export interface Eviction {
  compaction?: ImportedCompaction;
  warning: string;
  messageIndex: number;
}

/**
 * The eviction the in-context list records: messages outside it were taken
 * out of the model's context, and from the first in-context message on the
 * model saw Letta's summary of them instead. A summary with nothing evicted
 * before it in the file tells of an eviction whose messages were not exported.
 */
export function evictionOf(messages: readonly unknown[], inContext: ReadonlySet<number>, entries: readonly LettaEntry[]): Eviction | undefined {
  const sent = [...new Set(entries.map((entry) => entry.origin))];
  const conversational = sent.filter((origin) => isRecord(messages[origin]) && (messages[origin] as Raw).role !== "system");
  const evicted = conversational.filter((origin) => !inContext.has(origin));
  const kept = conversational.filter((origin) => inContext.has(origin));
  const indexOf = (origin: number) => entries.findIndex((entry) => entry.origin === origin);
  const summarised = kept.find((origin) => summaryOf(messages[origin]) !== undefined);
  const summary = summarised === undefined ? undefined : summaryOf(messages[summarised]);
  if (evicted.length > 0 && kept.length === 0)
    return {
      warning: `Letta cleared all ${evicted.length} messages after the system prompt from the model's context (none is in its in-context list): the next call sees only the system prompt`,
      messageIndex: entries.length - 1,
    };
  if (evicted.length > 0) {
    const compaction: ImportedCompaction = { at: indexOf(Math.min(...kept)) };
    if (summary !== undefined) compaction.summary = summary;
    const instead = summary === undefined ? "" : ", with Letta's summary of them in their place";
    return {
      compaction,
      warning: `Letta evicted ${evicted.length} messages from the model's context (they are outside its in-context list, and kept here): from this message on the model saw only the later ones${instead}`,
      messageIndex: compaction.at,
    };
  }
  if (summarised === undefined || summary === undefined) return undefined;
  return {
    compaction: { at: indexOf(summarised), summary },
    warning: "this message is Letta's summary of messages it had evicted before the export: the file does not hold them",
    messageIndex: indexOf(summarised),
  };
}

/** Letta's summary of evicted messages: a `summary` message, or a user message holding a system alert that says so. */
function summaryOf(message: unknown): string | undefined {
  if (!isRecord(message) || !Array.isArray(message.content)) return undefined;
  const text = message.content.map((part: unknown) => (isRecord(part) && typeof part.text === "string" ? part.text : "")).join("\n");
  if (message.role === "summary") return text;
  if (message.role !== "user" || !text.includes("system_alert")) return undefined;
  try {
    const alert: unknown = JSON.parse(text);
    return isRecord(alert) && alert.type === "system_alert" && typeof alert.message === "string" && /summary/i.test(alert.message) ? alert.message : undefined;
  } catch {
    return undefined;
  }
}
