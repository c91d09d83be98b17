import "server-only";
import path from "node:path";
import { HttpError } from "@/lib/api/errors";
import { importConversations, type ImportConversationsResult } from "@/lib/api/import";
import type { Database } from "@/lib/db";
import { IMPORT_FORMATS, type ImportFormat } from "@/lib/import";
import type { LocalAgent } from "./types";
import type { ResolvedSessionFile } from "./paths";
import { readCompleteText } from "./read-session";
import { rememberImport, withPathLock } from "./registry";

export interface LocalImportResult {
  /** The conversations the file became, the session's own first (a Claude Code file's subagents after it). */
  conversationIds: string[];
  format: ImportConversationsResult["format"];
  /** Bytes of the file the import read: a line still being written is left for the next one. */
  bytes: number;
  messageCount: number;
}

/**
 * The format to read an agent's files as: named rather than detected, so a
 * session of one line (just started) is not taken for a single JSON document.
 * An agent without an importer of its own is detected.
 */
export function importFormatOf(agent: LocalAgent): ImportFormat | "auto" {
  return isImportFormat(agent) ? agent : "auto";
}

function isImportFormat(value: string): value is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(value);
}

/**
 * Imports one session file through the import service, as a dropped file
 * would be (LA4). The service matches the session id the file carries, so
 * importing a session again appends what is new to its conversation.
 */
export async function importSessionFile(db: Database, file: ResolvedSessionFile): Promise<LocalImportResult> {
  return withPathLock(file.path, async () => {
    const complete = await readCompleteText(file.path);
    if (complete === null || complete.text.trim() === "") {
      throw new HttpError(409, "conflict", `${path.basename(file.path)} is being written and has no whole line yet; try again in a moment`);
    }
    const result = await importConversations(db, complete.text, { filename: path.basename(file.path), format: importFormatOf(file.root.agent) });
    const conversationIds = result.conversations.map((item) => item.conversation.id);
    rememberImport({ path: file.path, sessionId: file.place.sessionId ?? path.basename(file.path), conversationIds, at: new Date().toISOString() });
    return {
      conversationIds,
      format: result.format,
      bytes: complete.bytes,
      messageCount: result.conversations.reduce((total, item) => total + item.messageCount, 0),
    };
  });
}
