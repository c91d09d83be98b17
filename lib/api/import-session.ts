import "server-only";
import type { Message, TiktokenCounter } from "@/lib/context";
import { messageKey } from "@/lib/context/light";
import { callFactsMetadata } from "@/lib/formats";
import {
  appendMessages,
  createCheckpoint,
  findConversationBySessionKey,
  forkBranch,
  getHistoryByBranchId,
  getRootBranchByConversationId,
  getUnlinkedSubagentsBySessionKey,
  linkSubagent,
  type BranchRecord,
  type ConversationOrigin,
  type ConversationRecord,
  type Database,
  type JsonObject,
  type MessageRecord,
  type NewMessage,
} from "@/lib/db";
import type { ImportedConversation } from "@/lib/import";

/**
 * What an import keeps of a session beyond its messages (IM-10–IM-12 in
 * lib/import/README.md): each message's facts in its metadata, the session's
 * origin on the conversation, the agent's compactions as checkpoints, the
 * subagents' links to the calls that started them, and re-imports of the same
 * session appended to the conversation the first import made.
 */

/** "<agent>:<session id>", a subagent's id appended; null when the source names no session. */
export function sessionKeyOf(imported: ImportedConversation): string | null {
  const sessionId = imported.session?.sessionId;
  if (sessionId === undefined || sessionId === "") return null;
  const agent = imported.session?.agent ?? imported.format;
  const subagent = imported.subagentOf?.agentId;
  return subagent === undefined ? `${agent}:${sessionId}` : `${agent}:${sessionId}/${subagent}`;
}

/** The session's facts as the conversation keeps them, or null when the source said nothing of them. */
export function originOf(imported: ImportedConversation): ConversationOrigin | null {
  const origin: ConversationOrigin = { ...imported.session };
  if (imported.subagentOf?.agentId !== undefined) origin.subagentId = imported.subagentOf.agentId;
  if (imported.subagentOf?.parentSessionId !== undefined) origin.parentSessionId = imported.subagentOf.parentSessionId;
  return Object.keys(origin).length === 0 ? null : origin;
}

/** Each stored message's facts (`sources[position]` is its imported index) as metadata, null where there are none. */
export function factsMetadata(imported: ImportedConversation, sources: readonly number[]): (JsonObject | null)[] {
  return sources.map((source) => {
    const fields = callFactsMetadata(imported.facts?.[source]);
    return Object.keys(fields).length === 0 ? null : (fields as JsonObject);
  });
}

/** The stored position of each imported message (null when the pairing repair dropped it). */
export function positionsOf(length: number, sources: readonly number[]): (number | null)[] {
  const positions = new Array<number | null>(length).fill(null);
  sources.forEach((source, position) => {
    positions[source] = position;
  });
  return positions;
}

/**
 * Saves each of the agent's compactions as a checkpoint at its place (IM-11):
 * the summary, the messages it replaced, the tokens before (as the agent
 * reported them, else counted) and after (the summary, or the replacement
 * history the model received from then on).
 */
export async function saveCompactions(
  db: Database,
  branch: BranchRecord,
  imported: ImportedConversation,
  positions: readonly (number | null)[],
  stored: readonly NewMessage[],
  counter: TiktokenCounter,
): Promise<number> {
  let saved = 0;
  for (const compaction of imported.compactions ?? []) {
    const at = firstStoredFrom(positions, compaction.at, stored.length);
    const counted = stored.slice(0, at).reduce((sum, message) => sum + message.tokens, 0);
    const replacement = compaction.replacement ?? [];
    const after =
      replacement.length > 0
        ? replacement.reduce((sum, message) => sum + counter.countMessage(message), 0)
        : compaction.summary === undefined
          ? 0
          : counter.countMessage({ role: "user", content: compaction.summary });
    const metadata: JsonObject = {
      reason: "agent-compaction",
      agent: imported.session?.agent ?? imported.format,
      replaced: { fromPosition: 0, toPosition: at },
      tokensBefore: compaction.tokensBefore ?? counted,
      tokensAfter: after,
      ...(compaction.trigger === undefined ? {} : { trigger: compaction.trigger }),
      ...(compaction.summary === undefined ? {} : { summary: compaction.summary }),
      ...(replacement.length === 0 ? {} : { replacement: replacement as unknown as JsonObject[] }),
      ...(callFactsMetadata(compaction.facts) as JsonObject),
    };
    await createCheckpoint(db, branch.id, {
      values: { compaction: compaction.summary ?? "" },
      tokenUsage: { context: after, before: compaction.tokensBefore ?? counted, counted },
      metadata,
      messageCount: at,
    });
    saved += 1;
  }
  return saved;
}

function firstStoredFrom(positions: readonly (number | null)[], index: number, length: number): number {
  for (let at = index; at < positions.length; at += 1) {
    const position = positions[at];
    if (position !== null && position !== undefined) return position;
  }
  return length;
}

/** What appending a re-imported session did. */
export interface SessionAppendResult {
  branch: BranchRecord;
  appended: MessageRecord[];
  /** Set when the stored messages and the file part ways: the new messages went to a fork from here. */
  forkedAt: number | null;
}

/**
 * Appends what a re-imported session has beyond what is stored (F-SF3): the
 * stored messages are compared with the file's from the last one back; when
 * the file changed a stored message (a streamed turn that grew), the rest goes
 * to a new branch forked where they part, so nothing stored is rewritten.
 */
export async function appendToSession(db: Database, conversation: ConversationRecord, messages: readonly NewMessage[]): Promise<SessionAppendResult> {
  const root = await getRootBranchByConversationId(db, conversation.id);
  const stored = root.length;
  const common = await commonPrefix(db, root, messages);
  if (common === stored || common === messages.length) {
    const fresh = messages.slice(stored);
    const appended = fresh.length === 0 ? [] : await appendMessages(db, root.id, fresh, { expectedLength: stored });
    return { branch: { ...root, length: stored + appended.length }, appended, forkedAt: null };
  }
  const fork = await forkBranch(db, root.id, { position: common, name: `re-import@${common}` });
  const appended = await appendMessages(db, fork.id, messages.slice(common), { expectedLength: common });
  return { branch: { ...fork, length: common + appended.length }, appended, forkedAt: common };
}

/**
 * How many of the stored root messages equal the file's, from the start. A
 * session file only grows, so when the last stored message is the file's
 * message at its place the whole stored history is taken as the same; only
 * otherwise are they compared one by one.
 */
async function commonPrefix(db: Database, root: BranchRecord, messages: readonly NewMessage[]): Promise<number> {
  const length = Math.min(root.length, messages.length);
  if (length === 0) return 0;
  const [last] = await getHistoryByBranchId(db, root.id, { fromPosition: length - 1, toPosition: length });
  if (last !== undefined && messageKey(last.message) === messageKey(messages[length - 1].message)) return length;
  const stored = await getHistoryByBranchId(db, root.id, { toPosition: length });
  let common = 0;
  while (common < stored.length && messageKey(stored[common].message) === messageKey(messages[common].message)) common += 1;
  return common;
}

/** The conversation an earlier import of this session made, or null. */
export async function findSession(db: Database, sessionKey: string | null): Promise<ConversationRecord | null> {
  return sessionKey === null ? null : findConversationBySessionKey(db, sessionKey);
}

/** Where a subagent's parent is: another conversation of this import, or one stored before. */
export interface SubagentParent {
  conversationId: string;
  messages: readonly Message[];
}

/**
 * Links a subagent to its parent and to the parent's call that started it
 * (IM-12): the call named by the source, else the Task-like call whose prompt
 * is the subagent's first user message.
 */
export async function linkToParent(db: Database, conversationId: string, imported: ImportedConversation, parent: SubagentParent): Promise<string | null> {
  const callId = imported.subagentOf?.toolCallId ?? callStarting(parent.messages, imported.messages);
  await linkSubagent(db, conversationId, parent.conversationId, callId ?? null);
  return callId ?? null;
}

/** Links the subagents an earlier import stored before their parent arrived (IM-12). */
export async function claimSubagents(db: Database, sessionKey: string, parent: SubagentParent): Promise<void> {
  for (const subagent of await getUnlinkedSubagentsBySessionKey(db, sessionKey)) {
    const root = await getRootBranchByConversationId(db, subagent.id);
    const opening = await getHistoryByBranchId(db, root.id, { roles: ["user"], toPosition: Math.min(root.length, 5) });
    const callId = callStarting(
      parent.messages,
      opening.map((record) => record.message),
    );
    await linkSubagent(db, subagent.id, parent.conversationId, callId ?? null);
  }
}

function callStarting(parent: readonly Message[], subagent: readonly Message[]): string | undefined {
  const prompt = subagent.find((message) => message.role === "user")?.content?.trim();
  if (!prompt) return undefined;
  for (const message of parent) {
    for (const call of message.tool_calls ?? []) {
      try {
        const input = JSON.parse(call.function.arguments) as { prompt?: unknown };
        if (typeof input.prompt === "string" && input.prompt.trim() === prompt) return call.id;
      } catch {
        // Arguments that are not JSON name no prompt.
      }
    }
  }
  return undefined;
}
