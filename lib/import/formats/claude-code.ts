/**
 * Claude Code session JSONL (`~/.claude/projects/<project>/<session>.jsonl`):
 * one event a line. `user` and `assistant` lines carry an Anthropic message;
 * the lines of one streamed assistant message (same `message.id`, one block
 * each) are merged so parallel tool calls stay one turn. Sidechain lines (a
 * subagent's conversation) become conversations of their own; `summary` lines
 * and compaction boundaries are kept as markers; progress, snapshots and local
 * command lines are skipped, with one warning counting them.
 */
import { isRecord, type JsonPath, type MessageScope } from "../issues";
import type { JsonlRecord } from "../jsonl";
import type { ImportContext, LinesImporter } from "../registry";
import type { ConversationDraft } from "../requests";
import { readAnthropicWire, type WireMessage } from "./anthropic-wire";

const MESSAGE_TYPES = new Set(["user", "assistant"]);

/** One Anthropic message being gathered from lines, and the line it started on. */
interface LinesMessage extends WireMessage {
  id?: string;
  lines: number[];
}

interface Chain {
  wire: LinesMessage[];
  /** Markers to report once the messages are read, at the wire message they precede. */
  markers: { before: number; message: string; path: JsonPath }[];
  uuids: Set<string>;
}

function isMessageEntry(value: unknown): value is Record<string, unknown> & { message: Record<string, unknown> } {
  return isRecord(value) && typeof value.type === "string" && MESSAGE_TYPES.has(value.type) && isRecord(value.message);
}

export const claudeCodeImporter: LinesImporter = {
  format: "claude-code",
  detectLines(values) {
    const entries = values.filter(isMessageEntry);
    return entries.length > 0 && entries.every((entry) => typeof entry.uuid === "string" || typeof entry.sessionId === "string");
  },
  convertLines(records, context) {
    return convertSession(records, context);
  },
};

function newChain(): Chain {
  return { wire: [], markers: [], uuids: new Set() };
}

function convertSession(records: readonly JsonlRecord[], context: ImportContext): ConversationDraft[] {
  const main = newChain();
  const sidechains: Chain[] = [];
  const skipped = new Map<string, number>();
  let summary: string | undefined;
  let model: string | undefined;
  const session: Record<string, unknown> = {};
  const hasMainLines = records.some((record) => isMessageEntry(record.value) && record.value.isSidechain !== true);
  records.forEach((record, index) => {
    const entry = record.value;
    if (!isRecord(entry)) return count(skipped, "not an object");
    if (entry.type === "summary" && typeof entry.summary === "string") {
      summary ??= entry.summary;
      main.markers.push({ before: main.wire.length, message: `session summary: ${entry.summary}`, path: [index, "summary"] });
      return;
    }
    if (entry.type === "system" && entry.subtype === "compact_boundary") {
      main.markers.push({
        before: main.wire.length,
        message: "the conversation was compacted here: the messages after this point replaced the earlier ones for the model",
        path: [index],
      });
      return;
    }
    if (!isMessageEntry(entry)) return count(skipped, typeof entry.type === "string" ? entry.type : "untyped");
    if (typeof entry.sessionId === "string") session.sessionId ??= entry.sessionId;
    if (typeof entry.cwd === "string") session.cwd ??= entry.cwd;
    if (typeof entry.message.model === "string") model ??= entry.message.model;
    // A subagent's lines belong to the main session file only when some lines are not sidechains.
    const chain = entry.isSidechain === true && hasMainLines ? sidechainOf(entry, sidechains) : main;
    if (typeof entry.uuid === "string") chain.uuids.add(entry.uuid);
    if (entry.isCompactSummary === true) {
      chain.markers.push({
        before: chain.wire.length,
        message: "this user message is the summary Claude Code wrote when it compacted the conversation",
        path: [index],
      });
    }
    addMessage(chain, entry.message, index, record.line);
  });
  const source: Record<string, unknown> = { ...session };
  if (model !== undefined) source.model = model;
  const title = summary;
  const drafts: ConversationDraft[] = [];
  const mainDraft = readChain(main, context, source, title);
  if (skipped.size > 0) {
    const kinds = [...skipped].map(([kind, times]) => `${kind} ×${times}`).join(", ");
    const total = [...skipped.values()].reduce((sum, times) => sum + times, 0);
    mainDraft.warnings.push({ code: "entry-skipped", message: `skipped ${total} line${total === 1 ? "" : "s"} that hold no message (${kinds})` });
  }
  drafts.push(mainDraft);
  sidechains.forEach((chain, index) => {
    const draft = readChain(chain, context, source, `${title ?? "Claude Code session"} (subagent ${index + 1})`);
    mainDraft.warnings.push({
      code: "sidechain",
      message: `a subagent's ${draft.messages.length} messages (from line ${chain.wire[0].lines[0]}) were imported as a conversation of their own`,
      path: `[${chain.wire[0].source[0]}]`,
    });
    drafts.push(draft);
  });
  return drafts;
}

function count(skipped: Map<string, number>, kind: string): void {
  skipped.set(kind, (skipped.get(kind) ?? 0) + 1);
}

function sidechainOf(entry: Record<string, unknown>, sidechains: Chain[]): Chain {
  const parent = typeof entry.parentUuid === "string" ? entry.parentUuid : undefined;
  const found = parent === undefined ? undefined : sidechains.find((chain) => chain.uuids.has(parent));
  if (found !== undefined) return found;
  const chain = newChain();
  sidechains.push(chain);
  return chain;
}

/**
 * Appends one line's message; an assistant line continuing the last assistant
 * message (same id, only tool results since) adds its blocks to it.
 */
function addMessage(chain: Chain, message: Record<string, unknown>, index: number, line: number): void {
  const id = typeof message.id === "string" ? message.id : undefined;
  const role = typeof message.role === "string" ? message.role : "";
  if (role === "assistant" && id !== undefined) {
    const last = lastAssistant(chain.wire);
    if (last !== undefined && last.id === id && Array.isArray(last.content) && Array.isArray(message.content)) {
      const seen = new Set(last.content.map((block) => JSON.stringify(block)));
      // Older Claude Code versions repeat the blocks streamed so far on every line.
      for (const block of message.content) if (!seen.has(JSON.stringify(block))) last.content.push(block);
      last.lines.push(line);
      return;
    }
  }
  const content = Array.isArray(message.content) ? [...(message.content as unknown[])] : message.content;
  chain.wire.push({ role, id, content, source: [index, "message"], lines: [line] });
}

/** Claude Code streams a whitespace-only text block ahead of a turn's thinking; it says nothing and is left out. */
function isBlankText(block: unknown): boolean {
  return isRecord(block) && block.type === "text" && typeof block.text === "string" && block.text.trim() === "";
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

function readChain(chain: Chain, context: ImportContext, source: Record<string, unknown>, title: string | undefined): ConversationDraft {
  const scope: MessageScope = context.scope([]);
  for (const message of chain.wire) {
    if (message.role !== "assistant" || !Array.isArray(message.content) || message.content.length < 2) continue;
    const kept = message.content.filter((block) => !isBlankText(block));
    if (kept.length === message.content.length || kept.length === 0) continue;
    scope.warn("part-dropped", `${message.content.length - kept.length} whitespace-only text block(s) streamed before the turn's content were left out`, {
      path: message.source,
    });
    message.content = kept;
  }
  const { messages, starts } = readAnthropicWire(scope, chain.wire);
  chain.wire.forEach((message, index) => {
    if (message.lines.length > 1) {
      scope.warn("lines-merged", `lines ${message.lines.join(", ")} are one streamed message (${message.id}): merged into message ${starts[index]}`, {
        messageIndex: starts[index],
        path: message.source,
      });
    }
  });
  for (const marker of chain.markers) {
    const messageIndex = marker.before < starts.length ? starts[marker.before] : messages.length;
    scope.warn("marker", marker.message, { messageIndex: Math.min(messageIndex, Math.max(0, messages.length - 1)), path: marker.path });
  }
  const draft: ConversationDraft = { format: "claude-code", messages, warnings: scope.warnings, source };
  if (title !== undefined) draft.title = title;
  return draft;
}
