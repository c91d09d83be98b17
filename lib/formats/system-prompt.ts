/**
 * The system prompt of a recorded history and where it changed (P-SP1–P-SP3
 * in lib/proxy/README.md). A request's system prompt is its leading system messages (chat
 * `system`/`developer`, Responses `instructions`, Anthropic `system`). A
 * branch stores the prompt it began with in front of its turns; a call that
 * sent another one marks the first turn it recorded with the prompt it sent
 * (`metadata.systemPrompt`), so the history is stored once however often the
 * prompt changes, and the prompt each turn was sent with can be read back.
 */
import type { Message } from "@/lib/context/messages";
import { messageFingerprint } from "@/lib/context/light";

/** The metadata key of a system-prompt change on a recorded turn. */
export const SYSTEM_PROMPT_METADATA = "systemPrompt";

/** What a turn's metadata holds when the call that recorded it sent a different system prompt. */
export interface SystemPromptChange {
  /** The leading system messages the call sent (none: it sent no system prompt). */
  messages: Message[];
  /** `systemPromptFingerprint` of `messages`. */
  fingerprint: string;
}

/** A stored turn as far as its system prompt is concerned. */
export interface PromptRecord {
  message: Message;
  metadata?: Readonly<Record<string, unknown>> | null;
}

/** How many messages at the start are system messages: the system prompt. */
export function leadingSystemCount(messages: readonly Pick<Message, "role">[]): number {
  let count = 0;
  while (count < messages.length && messages[count].role === "system") count += 1;
  return count;
}

/** One fingerprint for a whole system prompt (F-4 per message, so cache marks and provider extras do not count). */
export function systemPromptFingerprint(messages: readonly Message[]): string {
  return messages.map(messageFingerprint).join(",");
}

/** The change a call's prompt makes, as stored in a turn's metadata. */
export function systemPromptChange(messages: readonly Message[]): SystemPromptChange {
  return { messages: [...messages], fingerprint: systemPromptFingerprint(messages) };
}

function isMessage(value: unknown): value is Message {
  return typeof value === "object" && value !== null && typeof (value as { role?: unknown }).role === "string";
}

/** P-SP2: the system prompt a turn's metadata says its call sent, or undefined when the turn carries none. */
export function systemPromptChangeOf(metadata: Readonly<Record<string, unknown>> | null | undefined): SystemPromptChange | undefined {
  const value = metadata?.[SYSTEM_PROMPT_METADATA];
  if (typeof value !== "object" || value === null) return undefined;
  const { messages, fingerprint } = value as { messages?: unknown; fingerprint?: unknown };
  if (!Array.isArray(messages) || !messages.every(isMessage)) return undefined;
  return { messages, fingerprint: typeof fingerprint === "string" ? fingerprint : systemPromptFingerprint(messages) };
}

/** One place where the system prompt changed along a history: before the turn at `position`. */
export interface SystemPromptShift {
  position: number;
  before: Message[];
  after: Message[];
}

/** P-SP2: every change of the system prompt along `records` (a branch's history from position 0), in order. */
export function systemPromptShifts(records: readonly PromptRecord[]): SystemPromptShift[] {
  let current = records.slice(0, leadingSystemCount(records.map((record) => record.message))).map((record) => record.message);
  const shifts: SystemPromptShift[] = [];
  records.forEach((record, position) => {
    const change = systemPromptChangeOf(record.metadata);
    if (!change || change.fingerprint === systemPromptFingerprint(current)) return;
    shifts.push({ position, before: current, after: change.messages });
    current = change.messages;
  });
  return shifts;
}

/**
 * P-SP3: the history as the call that recorded the turn at `end - 1` sent it:
 * `records[0, end)` with the stored system prompt replaced by the last one a
 * turn before `end` was sent with. With `end` the branch's length, the
 * branch as its latest call saw it.
 */
export function historyAsSent(records: readonly PromptRecord[], end = records.length): Message[] {
  const upto = records.slice(0, end);
  const messages = upto.map((record) => record.message);
  const stored = leadingSystemCount(messages);
  let prompt: Message[] | undefined;
  for (const record of upto) prompt = systemPromptChangeOf(record.metadata)?.messages ?? prompt;
  return prompt === undefined ? messages : [...prompt, ...messages.slice(stored)];
}
