import { BoundedMap } from "../bounded-map";
import { CONVERSATION_SUMMARY_PREFIX, type Message } from "../messages";

/** The latest persisted summary of a branch: it stands for every message before `toPosition`. */
export interface PersistedSummary {
  id: string;
  text: string;
  /** The history positions `[fromPosition, toPosition)` the summary chain covers. */
  fromPosition: number;
  toPosition: number;
  /** How people name it ("Checkpoint v3 (summary of messages 0–41)"). */
  label: string;
}

/** A memory retrieved for this request: an older summary or a stored tool result's outline. */
export interface RetrievedMemory {
  id: string;
  kind: "summary" | "artifact";
  label: string;
  /** The text the request carries for it. */
  content: string;
  score?: number;
  positions?: [number, number];
}

/** What persistence hands the request builder besides the raw history (E-RB1). */
export interface PersistedMemory {
  /** System messages of the history the summary covers: static, sent whole and first. */
  system?: readonly Message[];
  summary?: PersistedSummary | null;
  retrieved?: readonly RetrievedMemory[];
}

const MEMORY_MESSAGES_KEPT = 512;
const memoryMessages = new BoundedMap<string, Message>(MEMORY_MESSAGES_KEPT);

/**
 * One message object per memory and text, reused across builds: a stable
 * object keeps its token count and its place in the processors' caches.
 */
function memoryMessage(key: string, content: string, kind: "conversation-summary" | "retrieved-memory"): Message {
  const cacheKey = `${kind}\u0000${key}\u0000${content}`;
  let message = memoryMessages.get(cacheKey);
  if (!message) {
    message = Object.freeze({ role: "system" as const, content, engine: Object.freeze({ kind }) });
    memoryMessages.set(cacheKey, message);
  }
  return message;
}

/**
 * E-RB8: whether a retrieved memory only repeats the persisted summary: a
 * summary of positions the latest summary covers (the chain's latest summary
 * stands for every message before its end). A stored tool result's outline is
 * never covered: it carries the handle its full content reloads by, which no
 * summary does.
 * @example memories.filter((memory) => !coveredBySummary(memory, summary))
 */
export function coveredBySummary(memory: RetrievedMemory, summary: PersistedSummary | null): boolean {
  if (!summary || memory.kind !== "summary" || !memory.positions) return false;
  const [from, to] = memory.positions;
  return from >= summary.fromPosition && to <= summary.toPosition;
}

/** "12–27" for positions `[12, 28)`, "12" for one. */
export function positionsLabel(from: number, to: number): string {
  return to - from <= 1 ? `${from}` : `${from}–${to - 1}`;
}

/** The summary as the system message a request carries (an engine-made conversation summary, RB1). */
export function summaryMessage(summary: PersistedSummary): Message {
  const range = positionsLabel(summary.fromPosition, summary.toPosition);
  return memoryMessage(
    summary.id,
    `${CONVERSATION_SUMMARY_PREFIX} Messages ${range} of this conversation, summarized:\n${summary.text}`,
    "conversation-summary",
  );
}

/** A retrieved memory as the system message a request carries (E-RB2). */
export function retrievedMessage(memory: RetrievedMemory): Message {
  return memoryMessage(memory.id, memory.content, "retrieved-memory");
}
