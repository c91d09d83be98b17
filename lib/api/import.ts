import "server-only";
import { sanitizeHistory, sharedCounter, type HistoryRepair } from "@/lib/context";
import {
  createConversation,
  deleteConversationById,
  type BranchRecord,
  type ConversationRecord,
  type Database,
  type NewMessage,
} from "@/lib/db";
import { parseConversations, type ImportedConversation, type ImportFormat, type ImportWarning, type OffloadMarker } from "@/lib/import";
import { settingsEncoding, settingsForMode, DEFAULT_SETTINGS, type PlaygroundSettings } from "@/lib/playground/settings";
import { ApiError } from "./errors";

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

export interface ImportedConversationResult {
  conversation: ConversationRecord;
  branch: BranchRecord;
  messageCount: number;
  /** Indices refer to the imported messages, before repairs. */
  warnings: ImportWarning[];
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
  settings: PlaygroundSettings;
  messages: NewMessage[];
  repairs: HistoryRepair[];
  offloadMarkers: StoredOffloadMarker[];
}

/** Repairs that remove the message at their index (an unanswered call only loses the call). */
const DROPPING_REPAIRS: ReadonlySet<HistoryRepair["kind"]> = new Set(["orphan-tool-result", "duplicate-tool-result", "empty-assistant-dropped"]);

function storedPositions(length: number, repairs: readonly HistoryRepair[]): (number | null)[] {
  const dropped = new Set(repairs.filter((repair) => DROPPING_REPAIRS.has(repair.kind)).map((repair) => repair.index));
  let position = 0;
  return Array.from({ length }, (_, index) => (dropped.has(index) ? null : position++));
}

function selectConversations(all: ImportedConversation[], choice: ImportConversationsOptions["conversation"]): ImportedConversation[] {
  if (typeof choice === "number") {
    if (choice >= all.length) {
      const message = `conversation ${choice} does not exist: the input holds ${all.length} (0 to ${all.length - 1})`;
      throw new ApiError(400, "invalid_request", message, { issues: [{ path: "conversation", message }] });
    }
    return [all[choice]];
  }
  if (all.length > MAX_IMPORT_CONVERSATIONS) {
    throw new ApiError(
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

function prepare(imported: ImportedConversation, title: string): PreparedConversation {
  const model = modelOf(imported);
  const settings = model === undefined ? DEFAULT_SETTINGS : settingsForMode(DEFAULT_SETTINGS.mode, { model });
  const counter = sharedCounter(settingsEncoding(settings));
  const { history, repairs } = sanitizeHistory(imported.messages);
  const positions = storedPositions(imported.messages.length, repairs);
  return {
    imported,
    title,
    settings,
    // Imports are raw history: counted, stored as they are, never compacted on the way in.
    messages: history.map((message) => ({ message, tokens: counter.countMessage(message) })),
    repairs,
    offloadMarkers: imported.offloadMarkers.map((marker) => ({ ...marker, position: positions[marker.messageIndex] ?? null })),
  };
}

/**
 * Parses an import, repairs tool pairing and creates one conversation per
 * imported conversation. Everything is parsed and checked before the first
 * write; if a write still fails, the conversations this call created are
 * deleted again, so a failed import leaves nothing behind.
 */
export async function importConversations(db: Database, text: string, options: ImportConversationsOptions = {}): Promise<ImportConversationsResult> {
  const parsed = parseConversations(text, { filename: options.filename, format: options.format });
  const selected = selectConversations(parsed.conversations, options.conversation);
  const prepared = selected.map((imported, index) => {
    const title = options.title === undefined ? imported.title : selected.length > 1 ? `${options.title} #${index + 1}` : options.title;
    return prepare(imported, title);
  });
  const created: ImportedConversationResult[] = [];
  try {
    for (const item of prepared) {
      const { conversation, branch, messages } = await createConversation(db, {
        title: item.title,
        source: `import:${item.imported.format}`,
        settings: item.settings as unknown as Record<string, unknown>,
        tools: item.imported.tools ?? null,
        messages: item.messages,
      });
      created.push({
        conversation,
        branch,
        messageCount: messages.length,
        warnings: item.imported.warnings,
        repairs: item.repairs,
        offloadMarkers: item.offloadMarkers,
      });
    }
  } catch (error) {
    await removeCreated(db, created);
    throw error;
  }
  return { format: parsed.format, conversations: created };
}

async function removeCreated(db: Database, created: readonly ImportedConversationResult[]): Promise<void> {
  for (const { conversation } of created) {
    try {
      await deleteConversationById(db, conversation.id);
    } catch (error) {
      console.error(`[api] import failed and conversation '${conversation.id}' it created could not be deleted again:`, error);
    }
  }
}
