import "server-only";
import { sanitizeHistory, sharedCounter, type EncodingName, type HistoryRepair, type Message } from "@/lib/context";
import {
  appendMessagesBulk,
  beginStaging,
  createConversation,
  deleteStagedConversations,
  endStaging,
  publishStagedConversations,
  type BranchRecord,
  type ConversationRecord,
  type Database,
  type NewMessage,
} from "@/lib/db";
import { parseConversationsAsync, type ImportedConversation, type ImportFormat, type ImportWarning, type OffloadMarker } from "@/lib/import";
import { DEFAULT_SETTINGS, mergeSettings, resolveSettings, type Settings } from "@/lib/settings";
import { loadCatalogue } from "@/lib/models/server";
import type { ModelEntry } from "@/lib/models";
import { HttpError } from "./errors";
import { findLoneSurrogate } from "./json-input";

/** Messages written per transaction while an import is staged (one INSERT): other requests run between slices. */
export const IMPORT_SLICE_MESSAGES = 500;
/** Token counting yields to other requests after this many milliseconds of work. */
const COUNT_SLICE_MS = 15;

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
  repairs: HistoryRepair[];
  offloadMarkers: StoredOffloadMarker[];
  warnings: StoredImportWarning[];
}

/** Repairs that remove the message at their index (an unanswered call only loses the call). */
const DROPPING_REPAIRS: ReadonlySet<HistoryRepair["kind"]> = new Set(["orphan-tool-result", "duplicate-tool-result", "empty-assistant-dropped"]);

function storedPositions(length: number, repairs: readonly HistoryRepair[]): (number | null)[] {
  const dropped = new Set(repairs.filter((repair) => DROPPING_REPAIRS.has(repair.kind)).map((repair) => repair.index));
  let position = 0;
  return Array.from({ length }, (_, index) => (dropped.has(index) ? null : position++));
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
  const { history, repairs } = sanitizeHistory(imported.messages);
  const positions = storedPositions(imported.messages.length, repairs);
  const stored = history.length;
  return {
    imported,
    title,
    settings,
    encoding: resolveSettings(settings, catalogue).policy.encoding,
    history,
    repairs,
    offloadMarkers: imported.offloadMarkers.map((marker) => ({ ...marker, position: positions[marker.messageIndex] ?? null })),
    warnings: imported.warnings.map((warning) =>
      warning.messageIndex === undefined ? warning : { ...warning, position: placeOf(positions, warning.messageIndex, stored) },
    ),
  };
}

/**
 * Lone surrogates cannot be stored or counted: refused with the conversation,
 * message and field named. Checked message by message, yielding like the count.
 */
async function requireWellFormed(item: PreparedConversation, conversationIndex: number): Promise<void> {
  let sliceStart = performance.now();
  for (const [messageIndex, checked] of item.history.entries()) {
    const problem = findLoneSurrogate([checked]);
    if (problem) {
      const path = `messages${problem.path.replace(/^\[0\]/, `[${messageIndex}]`)}`;
      const message = `conversation ${conversationIndex}, ${path}: ${problem.message}`;
      throw new HttpError(400, "import_failed", message, { issues: [{ path, message: problem.message, messageIndex, conversationIndex }] });
    }
    if (performance.now() - sliceStart > COUNT_SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

/**
 * Counts tokens (imports are raw history: counted, stored as they are, never
 * compacted on the way in) in slices of about 15 ms, yielding between them
 * so a 100,000-message import never holds up other requests.
 */
async function countInSlices(item: PreparedConversation): Promise<NewMessage[]> {
  const counter = sharedCounter(item.encoding);
  const counted: NewMessage[] = [];
  let sliceStart = performance.now();
  for (const message of item.history) {
    counted.push({ message, tokens: counter.countMessage(message) });
    if (performance.now() - sliceStart > COUNT_SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return counted;
}

/** Writes one staged conversation: the conversation, then its messages in short transactions of their own. */
async function writeStaged(db: Database, item: PreparedConversation, messages: NewMessage[], staging: string): Promise<ImportedConversationResult> {
  const { conversation, branch } = await createConversation(db, {
    title: item.title,
    source: staging,
    settings: item.settings,
    tools: item.imported.tools ?? null,
  });
  for (let start = 0; start < messages.length; start += IMPORT_SLICE_MESSAGES) {
    await appendMessagesBulk(db, branch.id, messages.slice(start, start + IMPORT_SLICE_MESSAGES), { expectedLength: start });
  }
  return {
    conversation: { ...conversation, source: `import:${item.imported.format}` },
    branch: { ...branch, length: messages.length },
    messageCount: messages.length,
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
 * staged is deleted by the next import.
 */
export async function importConversations(db: Database, text: string, options: ImportConversationsOptions = {}): Promise<ImportConversationsResult> {
  const parsed = await parseConversationsAsync(text, { filename: options.filename, format: options.format });
  const selected = selectConversations(parsed.conversations, options.conversation);
  const catalogue = await loadCatalogue(db);
  const prepared = selected.map((imported, index) => {
    const title = options.title === undefined ? imported.title : selected.length > 1 ? `${options.title} #${index + 1}` : options.title;
    return prepare(imported, title, catalogue);
  });
  for (const [index, item] of prepared.entries()) await requireWellFormed(item, index);
  const counted: NewMessage[][] = [];
  for (const item of prepared) counted.push(await countInSlices(item));
  const staging = beginStaging();
  try {
    await deleteStagedConversations(db);
    const created: ImportedConversationResult[] = [];
    for (const [index, item] of prepared.entries()) created.push(await writeStaged(db, item, counted[index], staging));
    await publishStagedConversations(
      db,
      created.map(({ conversation }) => ({ id: conversation.id, source: conversation.source })),
    );
    return { format: parsed.format, conversations: created };
  } catch (error) {
    await deleteStagedConversations(db, staging).catch((cleanup: unknown) => {
      console.error(`[api] import failed and what it staged (${staging}) could not be deleted; the next import deletes it:`, cleanup);
    });
    throw error;
  } finally {
    endStaging(staging);
  }
}
