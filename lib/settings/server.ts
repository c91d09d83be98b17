import "server-only";
import type { ConversationRecord, Database } from "@/lib/db";
import { loadCatalogue } from "@/lib/models/server";
import { resolveStoredSettings, type ResolvedSettings } from "./resolve";
import type { SettingsChanges } from "./schema";

/**
 * A conversation's settings resolved (ST-6) against the catalogue with the users' entries.
 */
export async function conversationSettings(
  db: Database,
  conversation: Pick<ConversationRecord, "settings">,
  overrides?: SettingsChanges,
): Promise<ResolvedSettings> {
  return resolveStoredSettings(conversation.settings, await loadCatalogue(db), overrides);
}
