import "server-only";
import { findConversationByRecordKey, getConversationById, NotFoundError, type ConversationRecord, type Database } from "@/lib/db";
import { perDatabase } from "@/lib/db/per-database";

/** cuid()s, the ids Prisma gives conversations. */
const CONVERSATION_ID = /^c[a-z0-9]{20,32}$/;
/**
 * How long the handler trusts a looked-up conversation. Within it, requests
 * reach the upstream without touching the database (on SQLite a lookup would
 * queue behind the recorder's writes); a settings change such as turning
 * `applyPipeline` on takes effect within this time.
 */
export const CONVERSATION_CACHE_MS = 1_000;
const MAX_CACHED = 1_000;

/** The conversation an identity key names: by recordKey first, then by id. */
export async function findConversation(db: Database, key: string): Promise<ConversationRecord | null> {
  const byKey = await findConversationByRecordKey(db, key);
  if (byKey || !CONVERSATION_ID.test(key)) return byKey;
  try {
    return await getConversationById(db, key);
  } catch (error) {
    if (NotFoundError.isInstance(error)) return null;
    throw error;
  }
}

interface Cached {
  conversation: ConversationRecord | null;
  at: number;
}

const cacheOf = perDatabase<Cached>("conversations", MAX_CACHED);

/** Notes what the recorder just read or wrote, so the next request of that agent need not ask the database. */
export function rememberConversation(db: Database, key: string, conversation: ConversationRecord | null): void {
  cacheOf(db).set(key, { conversation, at: Date.now() });
}

/** `findConversation`, answered from the last second's lookups when it can. Decides only how to forward; the recorder looks up again. */
export async function lookupConversation(db: Database, key: string): Promise<ConversationRecord | null> {
  const cached = cacheOf(db).get(key);
  if (cached && Date.now() - cached.at < CONVERSATION_CACHE_MS) return cached.conversation;
  const conversation = await findConversation(db, key);
  rememberConversation(db, key, conversation);
  return conversation;
}
