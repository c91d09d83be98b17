import "server-only";
import { sanitizeHistory, sharedCounter, type Message, type ToolDefinition } from "@/lib/context";
import {
  createConversation,
  getConversationById,
  updateConversationById,
  type ConversationRecord,
  type CreateConversationResult,
  type Database,
} from "@/lib/db";
import { DEFAULT_SETTINGS, settingsEncoding, settingsForMode, type PlaygroundSettings } from "@/lib/playground/settings";
import { ApiError } from "./errors";
import type { ConversationSettingsChanges } from "./schemas";

export interface CreateConversationRequest {
  title: string;
  messages?: Message[];
  tools?: ToolDefinition[] | null;
  settings?: ConversationSettingsChanges;
}

export interface UpdateConversationRequest {
  title?: string;
  settings?: ConversationSettingsChanges;
  tools?: ToolDefinition[] | null;
}

/**
 * Settings changes over stored settings. A new `mode` brings its preset's
 * rounds and thresholds (as the playground's mode picker does) unless the
 * change sets them too; fields the change leaves out stay; `encoding: null`
 * removes the explicit encoding.
 */
export function mergeSettings(current: Record<string, unknown>, changes: ConversationSettingsChanges): Record<string, unknown> {
  const base = changes.mode === undefined ? current : { ...current, ...settingsForMode(changes.mode, current as Partial<PlaygroundSettings>) };
  const merged: Record<string, unknown> = { ...base, ...changes };
  if (merged.encoding === null) delete merged.encoding;
  return merged;
}

/** Refuses a history whose tool pairing is broken (422), naming each broken message. */
export function requireIntactToolPairs(messages: readonly Message[]): void {
  const { repairs } = sanitizeHistory(messages, { allowPendingToolCalls: true });
  if (repairs.length === 0) return;
  const issues = repairs.map((repair) => ({ path: `messages[${repair.index}]`, message: repair.message, messageIndex: repair.index }));
  throw new ApiError(
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
  const settings = mergeSettings({ ...DEFAULT_SETTINGS }, request.settings ?? {}) as unknown as PlaygroundSettings;
  const counter = sharedCounter(settingsEncoding(settings));
  return createConversation(db, {
    title: request.title,
    source: "api",
    settings: settings as unknown as Record<string, unknown>,
    tools: request.tools ?? null,
    messages: messages.map((message) => ({ message, tokens: counter.countMessage(message) })),
  });
}

/** Changes title, tools, or settings; settings fields are merged over the stored ones. */
export async function updateConversationFromRequest(db: Database, conversationId: string, changes: UpdateConversationRequest): Promise<ConversationRecord> {
  let settings: Record<string, unknown> | undefined;
  if (changes.settings !== undefined) {
    const current = await getConversationById(db, conversationId);
    settings = mergeSettings(current.settings, changes.settings);
  }
  return updateConversationById(db, conversationId, { title: changes.title, tools: changes.tools, settings });
}
