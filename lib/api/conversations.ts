import "server-only";
import { policyCounter, sanitizeHistory, type Message, type ToolDefinition } from "@/lib/context";
import {
  createConversation,
  updateConversationById,
  updateConversationWithSettings,
  type ConversationRecord,
  type CreateConversationResult,
  type Database,
  type NewMessage,
} from "@/lib/db";
import { countMessagesInSlices } from "@/lib/memory/slices";
import { DEFAULT_SETTINGS, mergeSettings, normalizeSettings, type SettingsChanges } from "@/lib/settings";
import { conversationSettings } from "@/lib/settings/server";
import { HttpError } from "./errors";

export interface CreateConversationRequest {
  title: string;
  messages?: Message[];
  tools?: ToolDefinition[] | null;
  settings?: SettingsChanges;
}

export interface UpdateConversationRequest {
  title?: string;
  settings?: SettingsChanges;
  tools?: ToolDefinition[] | null;
}

/** Refuses a history whose tool pairing is broken (422), naming each broken message. */
export function requireIntactToolPairs(messages: readonly Message[]): void {
  const { repairs } = sanitizeHistory(messages, { allowPendingToolCalls: true });
  if (repairs.length === 0) return;
  const issues = repairs.map((repair) => ({ path: `messages[${repair.index}]`, message: repair.message, messageIndex: repair.index }));
  throw new HttpError(
    422,
    "tool_pairing",
    `the messages break tool pairing: ${repairs[0].message}${repairs.length > 1 ? ` (and ${repairs.length - 1} more)` : ""}; every tool result must answer a call of the assistant message right before it`,
    { issues },
  );
}

/**
 * A conversation with an initial raw history: settings are the defaults with
 * the request's fields over them, tokens are counted with the settings'
 * encoding, and tool pairing must hold (calls at the very end may still wait
 * for their results).
 */
export async function createConversationFromRequest(db: Database, request: CreateConversationRequest): Promise<CreateConversationResult> {
  const messages = request.messages ?? [];
  requireIntactToolPairs(messages);
  const settings = mergeSettings(DEFAULT_SETTINGS, request.settings ?? {});
  const counter = policyCounter((await conversationSettings(db, { settings })).policy);
  const tokens = await countMessagesInSlices(counter, messages);
  const counted: NewMessage[] = messages.map((message, index) => ({ message, tokens: tokens[index] }));
  return createConversation(db, { title: request.title, source: "api", settings, tools: request.tools ?? null, messages: counted });
}

/** Changes title, tools, or settings; settings changes are merged over the stored settings atomically, under the row's lock (ST-3). */
export async function updateConversationFromRequest(db: Database, conversationId: string, changes: UpdateConversationRequest): Promise<ConversationRecord> {
  const { settings } = changes;
  if (settings === undefined) return updateConversationById(db, conversationId, { title: changes.title, tools: changes.tools });
  return updateConversationWithSettings(db, conversationId, (current) => mergeSettings(normalizeSettings(current).settings, settings), {
    title: changes.title,
    tools: changes.tools,
  });
}
