/**
 * Claude Code session JSONL (`~/.claude/projects/<project>/<session>.jsonl`,
 * a subagent's in `<session>/subagents/agent-<id>.jsonl`): one event a line.
 * `user` and `assistant` lines carry an Anthropic message; the lines of one
 * streamed assistant message (same `message.id`, one block each) are merged
 * so parallel tool calls stay one turn (IM-5). Each message keeps its line's
 * time, model, usage and ids (IM-10). A subagent's lines (sidechains, or
 * `agent_progress` lines under the Task call that started it) become
 * conversations of their own, linked to that call (IM-12); compaction
 * boundaries and their summaries become compactions (IM-11); `summary` lines
 * title the session; hook progress, snapshots and local command lines are
 * skipped, with one warning counting them.
 */
import type { CallFacts, SessionFacts } from "@/lib/formats";
import { isRecord, type JsonPath, type MessageScope } from "../../issues";
import type { JsonlRecord } from "../../jsonl";
import type { ImportContext, LinesImporter } from "../../registry";
import type { ConversationDraft } from "../../requests";
import type { ImportedCompaction } from "../../types";
import { readAnthropicWire } from "../anthropic-wire";
import { addMessage, newChain, type Chain } from "./chain";

const MESSAGE_TYPES = new Set(["user", "assistant"]);

type MessageEntry = Record<string, unknown> & { message: Record<string, unknown> };

function isMessageEntry(value: unknown): value is MessageEntry {
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

/** The lines gathered into chains, and what the session's lines said besides messages. */
interface Session {
  main: Chain;
  sidechains: Chain[];
  skipped: Map<string, number>;
  summary?: string;
  model?: string;
  facts: SessionFacts;
}

function convertSession(records: readonly JsonlRecord[], context: ImportContext): ConversationDraft[] {
  const hasMainLines = records.some((record) => isMessageEntry(record.value) && record.value.isSidechain !== true);
  const session: Session = { main: newChain(), sidechains: [], skipped: new Map(), facts: { agent: "claude-code" } };
  records.forEach((record, index) => readLine(session, record, index, hasMainLines));
  const { main, sidechains, skipped, facts } = session;
  const source: Record<string, unknown> = { ...facts };
  if (session.model !== undefined) source.model = session.model;
  const mainDraft = readChain(main, context, source, facts, session.summary);
  if (!hasMainLines && main.agentId !== undefined) {
    // A subagent's own file: its parent is the session it names.
    mainDraft.subagentOf = { agentId: main.agentId, parentSessionId: facts.sessionId };
  }
  if (skipped.size > 0) {
    const kinds = [...skipped].map(([kind, times]) => `${kind} ×${times}`).join(", ");
    const total = [...skipped.values()].reduce((sum, times) => sum + times, 0);
    mainDraft.warnings.push({ code: "entry-skipped", message: `skipped ${total} line${total === 1 ? "" : "s"} that hold no message (${kinds})` });
  }
  const drafts = [mainDraft];
  sidechains.forEach((chain, index) => {
    const draft = readChain(chain, context, source, facts, `${session.summary ?? "Claude Code session"} (subagent ${index + 1})`);
    draft.subagentOf = { conversationIndex: 0, agentId: chain.agentId, parentSessionId: facts.sessionId };
    if (chain.parentToolUseId !== undefined) draft.subagentOf.toolCallId = chain.parentToolUseId;
    const call = chain.parentToolUseId === undefined ? "" : `, started by call ${chain.parentToolUseId}`;
    mainDraft.warnings.push({
      code: "sidechain",
      message: `a subagent's ${draft.messages.length} messages (from line ${chain.wire[0].lines[0]}) were imported as a conversation of their own${call}`,
      path: `[${chain.wire[0].source[0]}]`,
    });
    drafts.push(draft);
  });
  return drafts;
}

function readLine(session: Session, record: JsonlRecord, index: number, hasMainLines: boolean): void {
  const entry = record.value;
  if (!isRecord(entry)) {
    count(session.skipped, "not an object");
    return;
  }
  const { main } = session;
  if (entry.type === "summary" && typeof entry.summary === "string") {
    session.summary ??= entry.summary;
    main.markers.push({ before: main.wire.length, message: `session summary: ${entry.summary}`, path: [index, "summary"] });
    return;
  }
  if (entry.type === "system" && entry.subtype === "compact_boundary") {
    const metadata = isRecord(entry.compactMetadata) ? entry.compactMetadata : {};
    main.compactions.push({
      before: main.wire.length,
      tokensBefore: typeof metadata.preTokens === "number" ? metadata.preTokens : undefined,
      trigger: typeof metadata.trigger === "string" ? metadata.trigger : undefined,
      at: typeof entry.timestamp === "string" ? entry.timestamp : undefined,
    });
    main.markers.push({
      before: main.wire.length,
      message: "the conversation was compacted here: the messages after this point replaced the earlier ones for the model",
      path: [index],
    });
    return;
  }
  if (entry.type === "progress" && isRecord(entry.data) && entry.data.type === "agent_progress") {
    readAgentProgress(session, entry, index, record.line);
    return;
  }
  if (!isMessageEntry(entry)) {
    const kind =
      typeof entry.type !== "string"
        ? "untyped"
        : isRecord(entry.data) && typeof entry.data.type === "string"
          ? `${entry.type}:${entry.data.type}`
          : entry.type;
    count(session.skipped, kind);
    return;
  }
  noteSession(session, entry);
  // A subagent's lines belong to the main session file only when some lines are not sidechains.
  const chain = entry.isSidechain === true && hasMainLines ? sidechainOf(entry, session.sidechains) : main;
  if (chain === main && typeof entry.agentId === "string") main.agentId ??= entry.agentId;
  if (typeof entry.uuid === "string") chain.uuids.add(entry.uuid);
  if (entry.isCompactSummary === true) {
    const compaction = chain.compactions.at(-1);
    if (compaction !== undefined && compaction.before === chain.wire.length) compaction.summary = textOf(entry.message.content);
    chain.markers.push({
      before: chain.wire.length,
      message: "this user message is the summary Claude Code wrote when it compacted the conversation",
      path: [index],
    });
  }
  addMessage(chain, entry, entry.message, [index, "message"], record.line);
}

/** The session's facts, from the first line that has each (F-SF3); the first model seen names the conversation's. */
function noteSession(session: Session, entry: MessageEntry): void {
  const facts = session.facts;
  if (typeof entry.sessionId === "string") facts.sessionId ??= entry.sessionId;
  if (typeof entry.cwd === "string") facts.cwd ??= entry.cwd;
  if (typeof entry.version === "string") facts.agentVersion ??= entry.version;
  if (typeof entry.gitBranch === "string" && entry.gitBranch !== "") facts.gitBranch ??= entry.gitBranch;
  const model = entry.message.model;
  if (typeof model === "string" && model !== "<synthetic>") session.model ??= model;
}

/** A subagent's message streamed into the parent's file under the Task call that started it (Claude Code 2.1). */
function readAgentProgress(session: Session, entry: Record<string, unknown>, index: number, line: number): void {
  const data = entry.data as Record<string, unknown>;
  const inner = data.message;
  if (!isMessageEntry(inner)) {
    count(session.skipped, "progress:agent_progress without a message");
    return;
  }
  const agentId = typeof data.agentId === "string" ? data.agentId : typeof entry.parentToolUseID === "string" ? entry.parentToolUseID : "subagent";
  let chain = session.sidechains.find((candidate) => candidate.agentId === agentId);
  if (chain === undefined) {
    chain = newChain();
    chain.agentId = agentId;
    if (typeof entry.parentToolUseID === "string") chain.parentToolUseId = entry.parentToolUseID;
    session.sidechains.push(chain);
  }
  // Each line carries one message; a line repeated (the same uuid) adds nothing.
  if (typeof inner.uuid === "string") {
    if (chain.uuids.has(inner.uuid)) return;
    chain.uuids.add(inner.uuid);
  }
  addMessage(chain, inner, inner.message, [index, "data", "message", "message"], line);
}

function count(skipped: Map<string, number>, kind: string): void {
  skipped.set(kind, (skipped.get(kind) ?? 0) + 1);
}

function sidechainOf(entry: Record<string, unknown>, sidechains: Chain[]): Chain {
  const parent = typeof entry.parentUuid === "string" ? entry.parentUuid : undefined;
  const found = parent === undefined ? undefined : sidechains.find((chain) => chain.uuids.has(parent));
  if (found !== undefined) return found;
  const chain = newChain();
  chain.agentId = typeof entry.agentId === "string" ? entry.agentId : typeof entry.uuid === "string" ? entry.uuid : `sidechain-${sidechains.length + 1}`;
  sidechains.push(chain);
  return chain;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((block): block is { text: string } => isRecord(block) && typeof block.text === "string")
    .map((block) => block.text)
    .join("\n");
}

/** Claude Code streams a whitespace-only text block ahead of a turn's thinking; it says nothing and is left out. */
function isBlankText(block: unknown): boolean {
  return isRecord(block) && block.type === "text" && typeof block.text === "string" && block.text.trim() === "";
}

function readChain(chain: Chain, context: ImportContext, source: Record<string, unknown>, session: SessionFacts, title: string | undefined): ConversationDraft {
  const scope: MessageScope = context.scope([]);
  dropBlankText(chain, scope);
  const { messages, starts } = readAnthropicWire(scope, chain.wire);
  const facts: (CallFacts | undefined)[] = new Array(messages.length).fill(undefined);
  chain.wire.forEach((message, index) => {
    // One API call, one entry: its usage goes to the first message the call became (IM-10).
    if (starts[index] < messages.length) facts[starts[index]] = message.facts;
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
  const draft: ConversationDraft = { format: "claude-code", messages, warnings: scope.warnings, source, facts, session };
  const compactions = chain.compactions.map((pending): ImportedCompaction => {
    const compaction: ImportedCompaction = { at: pending.before < starts.length ? starts[pending.before] : messages.length };
    if (pending.summary !== undefined) compaction.summary = pending.summary;
    if (pending.tokensBefore !== undefined) compaction.tokensBefore = pending.tokensBefore;
    if (pending.trigger !== undefined) compaction.trigger = pending.trigger;
    if (pending.at !== undefined) compaction.facts = { at: pending.at };
    return compaction;
  });
  if (compactions.length > 0) draft.compactions = compactions;
  if (title !== undefined) draft.title = title;
  return draft;
}

function dropBlankText(chain: Chain, scope: MessageScope): void {
  for (const message of chain.wire) {
    if (message.role !== "assistant" || !Array.isArray(message.content) || message.content.length < 2) continue;
    const kept = message.content.filter((block) => !isBlankText(block));
    if (kept.length === message.content.length || kept.length === 0) continue;
    scope.warn("part-dropped", `${message.content.length - kept.length} whitespace-only text block(s) streamed before the turn's content were left out`, {
      path: message.source as JsonPath,
    });
    message.content = kept;
  }
}
