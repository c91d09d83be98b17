import "server-only";
import { createHash } from "node:crypto";
import { getHistoryByBranchId, getRootBranchByConversationId, type Database } from "@/lib/db";
import type { Message } from "@/lib/context";
import { BoundedMap } from "@/lib/context/bounded-map";
import { lookupConversation } from "../conversations";
import type { AgentIdentity } from "../identify";

/** Each conversation's first recorded system prompt (null: it began without one); recorded messages never change. */
const CACHE_KEY = Symbol.for("context-lab.proxy.first-system-prompts");
/**
 * The system prompt of a key's first request while its conversation is not
 * recorded yet: an agent's next request can arrive before the recording of
 * its first, and must be judged by arrival order.
 */
const PENDING_KEY = Symbol.for("context-lab.proxy.pending-system-prompts");
const MAX_CACHED = 1_000;
const globalForCache = globalThis as typeof globalThis & {
  [CACHE_KEY]?: BoundedMap<string, string | null>;
  [PENDING_KEY]?: WeakMap<object, BoundedMap<string, string>>;
};

function pendingOf(db: Database): BoundedMap<string, string> {
  const byDatabase = (globalForCache[PENDING_KEY] ??= new WeakMap());
  let pending = byDatabase.get(db);
  if (!pending) {
    pending = new BoundedMap(MAX_CACHED);
    byDatabase.set(db, pending);
  }
  return pending;
}

function systemPromptOf(messages: readonly Message[]): string | null {
  const first = messages[0];
  return first?.role === "system" ? (first.content ?? "") : null;
}

/** The first recorded message's system prompt; undefined while nothing is recorded. */
async function firstSystemPrompt(db: Database, conversationId: string): Promise<string | null | undefined> {
  const cache = (globalForCache[CACHE_KEY] ??= new BoundedMap(MAX_CACHED));
  if (cache.has(conversationId)) return cache.get(conversationId);
  const root = await getRootBranchByConversationId(db, conversationId);
  const [first] = await getHistoryByBranchId(db, root.id, { positions: [0] });
  if (!first) return undefined;
  const prompt = first.message.role === "system" ? (first.message.content ?? "") : null;
  cache.set(conversationId, prompt);
  return prompt;
}

/**
 * P-S2: the record key of the request's conversation. A request whose first
 * system prompt differs from the one the key's conversation began with
 * belongs to a conversation of its own, `<key>#<hash of the prompt>`: a
 * second agent, or a second configuration of one, sharing a key is not a
 * branch of the first. A request without a system prompt, or a key whose
 * conversation has nothing recorded yet, keeps the key.
 */
export async function conversationKeyOf(db: Database, identity: AgentIdentity, messages: readonly Message[]): Promise<string> {
  const prompt = systemPromptOf(messages);
  if (prompt === null) return identity.key;
  const pending = pendingOf(db);
  const conversation = await lookupConversation(db, identity.key);
  let first = conversation ? await firstSystemPrompt(db, conversation.id) : undefined;
  if (first === undefined) {
    first = pending.get(identity.key);
    if (first === undefined) pending.set(identity.key, prompt);
  } else {
    pending.delete(identity.key);
  }
  if (first === undefined || first === prompt) return identity.key;
  return `${identity.key}#${createHash("sha256").update(prompt).digest("hex").slice(0, 8)}`;
}
