import "server-only";
import { sanitizeHistory, sharedCounter, type EncodingName, type HistoryRepair, type Message } from "@/lib/context";
import {
  appendMessagesBulk,
  beginStaging,
  bulkBatches,
  getConversationById,
  getHistoryByBranchId,
  getRootBranchByConversationId,
  createConversation,
  deleteAbandonedStagedConversations,
  deleteStagedConversations,
  publishStagedConversations,
  type BranchRecord,
  type ConversationRecord,
  type Database,
  type NewMessage,
} from "@/lib/db";
import { publishAppended, publishBranchCreated } from "@/lib/live";
import { parseConversationsAsync, type ImportedConversation, type ImportFormat, type ImportWarning, type OffloadMarker } from "@/lib/import";
import { DEFAULT_SETTINGS, mergeSettings, resolveSettings, type Settings } from "@/lib/settings";
import { loadCatalogue } from "@/lib/models/server";
import type { ModelEntry } from "@/lib/models";
import { countMessagesInSlices } from "@/lib/memory/slices";
import { HttpError } from "./errors";
import {
  appendToSession,
  claimSubagents,
  factsMetadata,
  findSession,
  linkToParent,
  originOf,
  positionsOf,
  saveCompactions,
  sessionKeyOf,
  type SubagentParent,
} from "./import-session";
import { requireShallowImport, requireStorableImport } from "./import-limits";

/** Messages written per transaction while an import is staged (one INSERT): other requests run between slices. */
const IMPORT_SLICE_MESSAGES = 500;
/**
 * And characters of text per transaction, but for a single longer message
 * (RL-ST8): the commit that writes them, and the library's words of them,
 * run in one go; 19 messages of 1M characters in one slice held the server
 * about 60 ms for each.
 */
const IMPORT_SLICE_CHARACTERS = 1_000_000;

/** At most this many conversations are created by one import; past it the import is refused with 413. */
export const MAX_IMPORT_CONVERSATIONS = 500;

export interface ImportConversationsOptions {
  filename?: string;
  format?: ImportFormat | "auto";
  /** Titles the conversations (numbered `#n` when there are several) instead of the parser's titles. */
  title?: string;
  /** One conversation of a multi-conversation input (0-based), or "all" (the default). */
  conversation?: number | "all";
}

/** An offload marker, with the stored position of its message (null when the repair dropped it). */
export interface StoredOffloadMarker extends OffloadMarker {
  position: number | null;
}

/** A warning with the stored position of its message: where a dropped message was, the message now in its place. */
export interface StoredImportWarning extends ImportWarning {
  position?: number | null;
}

export interface ImportedConversationResult {
  conversation: ConversationRecord;
  branch: BranchRecord;
  messageCount: number;
  /** Set when the session was imported before: the messages this import appended to it (F-SF3). */
  appended?: number;
  /** The agent's compactions saved as checkpoints (IM-11). */
  compactions: number;
  /** `messageIndex` refers to the imported messages, before repairs; `position` to the stored ones. */
  warnings: StoredImportWarning[];
  /** What `sanitizeHistory` changed so every tool result answers a call; indices as in `warnings`. */
  repairs: HistoryRepair[];
  offloadMarkers: StoredOffloadMarker[];
}

export interface ImportConversationsResult {
  format: ImportFormat;
  conversations: ImportedConversationResult[];
}

interface PreparedConversation {
  imported: ImportedConversation;
  title: string;
  settings: Settings;
  /** What the settings count with. */
  encoding: EncodingName;
  history: Message[];
  /** Each stored message's imported index. */
  sources: number[];
  /** Each imported message's stored position, null when the repair dropped it. */
  positions: (number | null)[];
  repairs: HistoryRepair[];
  offloadMarkers: StoredOffloadMarker[];
  warnings: StoredImportWarning[];
  sessionKey: string | null;
}

/** The stored position of imported message `index`, or of the message now where it was (null when nothing is stored). */
function placeOf(positions: readonly (number | null)[], index: number, stored: number): number | null {
  for (let at = index; at < positions.length; at += 1) if (positions[at] !== null) return positions[at];
  return stored === 0 ? null : stored - 1;
}

function selectConversations(all: ImportedConversation[], choice: ImportConversationsOptions["conversation"]): ImportedConversation[] {
  if (typeof choice === "number") {
    if (choice >= all.length) {
      const message = `conversation ${choice} does not exist: the input holds ${all.length} (0 to ${all.length - 1})`;
      throw new HttpError(400, "invalid_request", message, { issues: [{ path: "conversation", message }] });
    }
    return [all[choice]];
  }
  if (all.length > MAX_IMPORT_CONVERSATIONS) {
    throw new HttpError(
      413,
      "too_many_conversations",
      `the input holds ${all.length} conversations; one import creates at most ${MAX_IMPORT_CONVERSATIONS}: split the file, or pass ?conversation=<n> to import one`,
      { details: { count: all.length, limit: MAX_IMPORT_CONVERSATIONS } },
    );
  }
  return all;
}

function modelOf(imported: ImportedConversation): string | undefined {
  const model = imported.source?.model;
  return typeof model === "string" && model.trim() !== "" ? model : undefined;
}

function prepare(imported: ImportedConversation, title: string, catalogue: readonly ModelEntry[]): PreparedConversation {
  const model = modelOf(imported);
  // The model the input named (a request's `model`) counts its messages and sizes its window.
  const settings = model === undefined ? DEFAULT_SETTINGS : mergeSettings(DEFAULT_SETTINGS, { model });
  const { history, repairs, sources = history.map((_, index) => index) } = sanitizeHistory(imported.messages);
  const positions = positionsOf(imported.messages.length, sources);
  const stored = history.length;
  return {
    imported,
    title,
    settings,
    encoding: resolveSettings(settings, catalogue).policy.encoding,
    history,
    sources,
    positions,
    repairs,
    sessionKey: sessionKeyOf(imported),
    offloadMarkers: imported.offloadMarkers.map((marker) => ({ ...marker, position: positions[marker.messageIndex] ?? null })),
    warnings: imported.warnings.map((warning) =>
      warning.messageIndex === undefined ? warning : { ...warning, position: placeOf(positions, warning.messageIndex, stored) },
    ),
  };
}

/**
 * Counts tokens (imports are raw history: counted, stored as they are, never
 * compacted on the way in) in slices, yielding between them so a
 * 100,000-message import never holds up other requests.
 */
async function countInSlices(item: PreparedConversation): Promise<NewMessage[]> {
  const metadata = factsMetadata(item.imported, item.sources);
  const tokens = await countMessagesInSlices(sharedCounter(item.encoding), item.history);
  return item.history.map((message, position) => ({ message, tokens: tokens[position], metadata: metadata[position] }));
}

/** The characters of text a message is stored with: its content and its tool calls' arguments. */
function storedCharacters({ message }: NewMessage): number {
  const content = typeof message.content === "string" ? message.content.length : message.content ? JSON.stringify(message.content).length : 0;
  return content + (message.tool_calls ?? []).reduce((sum, call) => sum + call.function.arguments.length, 0);
}

/** Writes one staged conversation: the conversation, then its messages in short transactions of their own. */
async function writeStaged(db: Database, item: PreparedConversation, messages: NewMessage[], staging: string): Promise<ImportedConversationResult> {
  const { conversation, branch } = await createConversation(db, {
    title: item.title,
    source: staging,
    settings: item.settings,
    tools: item.imported.tools ?? null,
    origin: originOf(item.imported),
    sessionKey: item.sessionKey,
  });
  let start = 0;
  for (const slice of bulkBatches(messages, storedCharacters, { rows: IMPORT_SLICE_MESSAGES, characters: IMPORT_SLICE_CHARACTERS })) {
    await appendMessagesBulk(db, branch.id, slice, { expectedLength: start });
    start += slice.length;
  }
  const stored = { ...branch, length: messages.length };
  const compactions = await saveCompactions(db, stored, item.imported, item.positions, messages, sharedCounter(item.encoding));
  return {
    conversation: { ...conversation, source: `import:${item.imported.format}` },
    branch: stored,
    messageCount: messages.length,
    compactions,
    warnings: item.warnings,
    repairs: item.repairs,
    offloadMarkers: item.offloadMarkers,
  };
}

/**
 * Parses an import, repairs tool pairing and creates one conversation per
 * imported conversation, all or nothing, also across a crash. Everything is
 * parsed, checked and counted before the first write; the conversations are
 * written staged (invisible) in short transactions and published together
 * in one; a failed import deletes what it staged, and what a killed server
 * staged is deleted by a later import once its lease ran out (IN-1).
 */
export async function importConversations(db: Database, text: string, options: ImportConversationsOptions = {}): Promise<ImportConversationsResult> {
  requireShallowImport(text);
  const parsed = await parseConversationsAsync(text, { filename: options.filename, format: options.format });
  const selected = selectConversations(parsed.conversations, options.conversation);
  const catalogue = await loadCatalogue(db);
  const prepared = selected.map((imported, index) => {
    const title = options.title === undefined ? imported.title : selected.length > 1 ? `${options.title} #${index + 1}` : options.title;
    return prepare(imported, title, catalogue);
  });
  for (const [index, item] of prepared.entries()) await requireStorableImport(item.imported, item.title, index);
  const counted: NewMessage[][] = [];
  for (const item of prepared) counted.push(await countInSlices(item));
  const earlier = await Promise.all(prepared.map((item) => findSession(db, item.sessionKey)));
  await deleteAbandoned(db);
  const staging = beginStaging(db);
  try {
    const results: ImportedConversationResult[] = [];
    for (const [index, item] of prepared.entries()) {
      const stored = earlier[index];
      results.push(stored === null ? await writeStaged(db, item, counted[index], staging.source) : await appendSession(db, stored, item, counted[index]));
    }
    const created = results.filter((result) => result.appended === undefined);
    await publishStagedConversations(
      db,
      staging.source,
      created.map(({ conversation }) => ({ id: conversation.id, source: conversation.source })),
    );
    await linkSubagents(db, prepared, results);
    return { format: parsed.format, conversations: results };
  } catch (error) {
    await deleteStagedConversations(db, staging.source).catch((cleanup: unknown) => {
      console.error(
        `[api] import failed and what it staged (${staging.source}) could not be deleted; a later import deletes it once its lease runs out:`,
        cleanup,
      );
    });
    throw error;
  } finally {
    staging.end();
  }
}

/** IN-1: what crashed imports staged is deleted once its lease ran out; a failure to do so never fails this import. */
async function deleteAbandoned(db: Database): Promise<void> {
  await deleteAbandonedStagedConversations(db).catch((error: unknown) => {
    console.error("[api] what crashed imports staged could not be deleted; the next import tries again:", error);
  });
}

/** A session imported before: what is new is appended to its conversation (F-SF3). */
async function appendSession(
  db: Database,
  stored: ConversationRecord,
  item: PreparedConversation,
  messages: NewMessage[],
): Promise<ImportedConversationResult> {
  const { branch, appended, forkedAt } = await appendToSession(db, stored, messages);
  const conversation = await getConversationById(db, stored.id);
  // An open workspace shows each new turn of a followed session as it is appended.
  if (appended.length > 0) publishAppended(conversation, branch.id, appended);
  if (forkedAt !== null) publishBranchCreated(branch);
  const warnings: StoredImportWarning[] = appended.length === 0 ? [] : item.warnings;
  if (forkedAt !== null)
    warnings.push({
      code: "marker",
      message: `the file no longer matches the stored session from message ${forkedAt}: the new messages went to branch '${branch.name}'`,
    });
  return {
    conversation,
    branch,
    messageCount: branch.length,
    appended: appended.length,
    compactions: 0,
    warnings,
    repairs: appended.length === 0 ? [] : item.repairs,
    offloadMarkers: appended.length === 0 ? [] : item.offloadMarkers,
  };
}

/**
 * Links each subagent to its parent (IM-12): a conversation of this import
 * (its index, or the one with the parent's session id and no parent of its
 * own), else one an earlier import stored under the parent's session.
 */
async function linkSubagents(db: Database, prepared: readonly PreparedConversation[], results: readonly ImportedConversationResult[]): Promise<void> {
  for (const [index, item] of prepared.entries()) {
    if (item.imported.subagentOf === undefined && item.sessionKey !== null && results[index].appended === undefined)
      await claimSubagents(db, item.sessionKey, parentInImport(item, results[index]));
  }
  for (const [index, item] of prepared.entries()) {
    const link = item.imported.subagentOf;
    if (link === undefined || results[index].conversation.parentId !== null) continue;
    const parentIndex =
      link.conversationIndex ??
      prepared.findIndex((other) => other.imported.subagentOf === undefined && other.imported.session?.sessionId === link.parentSessionId);
    const parent = parentIndex >= 0 && parentIndex !== index ? parentInImport(prepared[parentIndex], results[parentIndex]) : await storedParent(db, item);
    if (parent === null) continue;
    const callId = await linkToParent(db, results[index].conversation.id, item.imported, parent);
    results[index].conversation = { ...results[index].conversation, parentId: parent.conversationId, parentCallId: callId };
  }
}

function parentInImport(item: PreparedConversation, result: ImportedConversationResult): SubagentParent {
  return { conversationId: result.conversation.id, messages: item.history };
}

async function storedParent(db: Database, item: PreparedConversation): Promise<SubagentParent | null> {
  const parentSessionId = item.imported.subagentOf?.parentSessionId;
  if (parentSessionId === undefined) return null;
  const parent = await findSession(db, `${item.imported.session?.agent ?? item.imported.format}:${parentSessionId}`);
  if (parent === null) return null;
  const root = await getRootBranchByConversationId(db, parent.id);
  const history = await getHistoryByBranchId(db, root.id, { roles: ["assistant"] });
  return { conversationId: parent.id, messages: history.map((record) => record.message) };
}
