/**
 * One conversation of a Claude Code session being gathered from its lines:
 * the main one, a sidechain, or a subagent streamed as `agent_progress`
 * lines. Each Anthropic message remembers its lines and what they said of the
 * call (time, model, usage, ids), read once the messages are converted.
 */
import type { CallFacts } from "@/lib/formats";
import { isoTime, readReportedUsage } from "@/lib/formats";
import { isRecord, type JsonPath } from "../../issues";
import type { WireMessage } from "../anthropic-wire";

/** One Anthropic message being gathered from lines, and the lines it came from. */
export interface LinesMessage extends WireMessage {
  id?: string;
  lines: number[];
  facts: CallFacts;
}

/** A compaction boundary seen in the lines, before the wire message at `before`. */
export interface PendingCompaction {
  before: number;
  tokensBefore?: number;
  trigger?: string;
  at?: string;
  summary?: string;
}

export interface Chain {
  wire: LinesMessage[];
  /** Markers to report once the messages are read, at the wire message they precede. */
  markers: { before: number; message: string; path: JsonPath }[];
  compactions: PendingCompaction[];
  uuids: Set<string>;
  /** A subagent's id (`agent_progress` lines' `agentId`) and the parent's Task call that started it. */
  agentId?: string;
  parentToolUseId?: string;
}

export function newChain(): Chain {
  return { wire: [], markers: [], compactions: [], uuids: new Set() };
}

/** What one line says of its message's call (F-SF2): the line's time, the model, usage and ids. */
function factsOfLine(entry: Readonly<Record<string, unknown>>, message: Readonly<Record<string, unknown>>): CallFacts {
  const facts: CallFacts = {};
  const at = isoTime(entry.timestamp);
  if (at !== undefined) facts.at = at;
  // Claude Code writes "<synthetic>" as the model of messages it made itself (an API error shown as a turn).
  if (typeof message.model === "string") facts.model = message.model;
  const usage = readReportedUsage(message.usage);
  if (usage !== undefined) facts.usage = usage;
  if (typeof entry.requestId === "string") facts.requestId = entry.requestId;
  if (typeof message.id === "string") facts.responseId = message.id;
  if (typeof message.stop_reason === "string") facts.stopReason = message.stop_reason;
  return facts;
}

/**
 * Appends one line's message; an assistant line continuing the last assistant
 * message (same id, only tool results since) adds its blocks to it, and its
 * usage and stop reason, which grow as the message streams, replace the
 * earlier line's (one API call, counted once: I10).
 */
export function addMessage(chain: Chain, entry: Readonly<Record<string, unknown>>, message: Record<string, unknown>, source: JsonPath, line: number): void {
  const id = typeof message.id === "string" ? message.id : undefined;
  const role = typeof message.role === "string" ? message.role : "";
  const facts = factsOfLine(entry, message);
  if (role === "assistant" && id !== undefined) {
    const last = lastAssistant(chain.wire);
    if (last !== undefined && last.id === id && Array.isArray(last.content) && Array.isArray(message.content)) {
      const seen = new Set(last.content.map((block) => JSON.stringify(block)));
      // Older Claude Code versions repeat the blocks streamed so far on every line.
      for (const block of message.content) if (!seen.has(JSON.stringify(block))) last.content.push(block);
      last.lines.push(line);
      if (facts.usage !== undefined) last.facts.usage = facts.usage;
      if (facts.stopReason !== undefined) last.facts.stopReason = facts.stopReason;
      return;
    }
  }
  const content = Array.isArray(message.content) ? [...(message.content as unknown[])] : message.content;
  chain.wire.push({ role, id, content, source, lines: [line], facts });
}

/** The last assistant message, when only tool-result lines came after it. */
function lastAssistant(wire: readonly LinesMessage[]): LinesMessage | undefined {
  for (let index = wire.length - 1; index >= 0; index -= 1) {
    const message = wire[index];
    if (message.role === "assistant") return message;
    if (!isToolResults(message.content)) return undefined;
  }
  return undefined;
}

function isToolResults(content: unknown): boolean {
  return Array.isArray(content) && content.length > 0 && content.every((block) => isRecord(block) && block.type === "tool_result");
}
