import "server-only";
import type { ConversationRecord, Database } from "@/lib/db";
import { loadCatalogue } from "@/lib/models/server";
import { mergeSettings } from "./merge";
import { normalizeSettings } from "./normalize";
import { resolveSettings, type ResolvedSettings } from "./resolve";
import type { SettingsChanges } from "./schema";

/**
 * A conversation's settings, normalised (ST2), with a call's overrides merged
 * over them (ST3), resolved against the catalogue with the users' entries (ST4).
 */
export async function conversationSettings(
  db: Database,
  conversation: Pick<ConversationRecord, "settings">,
  overrides?: SettingsChanges,
): Promise<ResolvedSettings> {
  const { settings } = normalizeSettings(conversation.settings);
  return resolveSettings(overrides ? mergeSettings(settings, overrides) : settings, await loadCatalogue(db));
}
