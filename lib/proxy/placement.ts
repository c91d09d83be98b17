import "server-only";
import type { Message } from "@/lib/context";
import { BoundedMap } from "@/lib/context/bounded-map";
import { forkBranch, getBranchesByConversationId, getHistoryByBranchId, type BranchRecord, type Database, type MessageRecord } from "@/lib/db";
import { messageFingerprint } from "./canonical";

/**
 * Where a recorded sequence of messages belongs in a conversation's branch
 * tree. Every branch's history is compared with the sequence by message
 * fingerprints; the branch with the longest common prefix wins. The sequence
 * then already exists (nothing to write), extends that branch (append), or
 * diverges inside it (fork at the first differing position, then append).
 */

/** One message to place, with the fingerprint it is compared by. */
export interface Turn {
  message: Message;
  fingerprint: string;
}

export interface Placement {
  /** The branch whose history will equal the sequence. */
  branch: BranchRecord;
  /** Messages of the sequence the branch already holds; the rest is to append. */
  common: number;
  /** The fork made for this placement, if any. */
  forked: BranchRecord | null;
}

/** The fingerprint a stored message is compared by: the one the proxy recorded with it, else its own. */
export function fingerprintOfRecord(record: MessageRecord): string {
  const recorded = record.metadata?.fingerprint;
  return typeof recorded === "string" ? recorded : messageFingerprint(record.message);
}

/** Each conversation's branch fingerprints, per database client, grown as branches grow (raw turns are immutable). */
const CACHE_KEY = Symbol.for("context-lab.proxy.branch-fingerprints");
/** Conversations kept; the least recently used are dropped first. */
const MAX_CACHED_CONVERSATIONS = 500;
const globalForCache = globalThis as typeof globalThis & { [CACHE_KEY]?: WeakMap<object, BoundedMap<string, Map<string, string[]>>> };

function conversationCache(db: Database, conversationId: string): Map<string, string[]> {
  const byDatabase = (globalForCache[CACHE_KEY] ??= new WeakMap());
  let conversations = byDatabase.get(db);
  if (!conversations) {
    conversations = new BoundedMap(MAX_CACHED_CONVERSATIONS, { refreshOnRead: true });
    byDatabase.set(db, conversations);
  }
  let branches = conversations.get(conversationId);
  if (!branches) {
    branches = new Map();
    conversations.set(conversationId, branches);
  }
  return branches;
}

interface LoadedBranch {
  branch: BranchRecord;
  fingerprints: string[];
}

async function loadBranches(db: Database, conversationId: string): Promise<LoadedBranch[]> {
  const branches = await getBranchesByConversationId(db, conversationId);
  const cache = conversationCache(db, conversationId);
  const loaded: LoadedBranch[] = [];
  for (const branch of branches) {
    let fingerprints = cache.get(branch.id) ?? [];
    if (fingerprints.length > branch.length) fingerprints = [];
    if (fingerprints.length < branch.length) {
      const records = await getHistoryByBranchId(db, branch.id, { fromPosition: fingerprints.length });
      fingerprints = fingerprints.concat(records.map(fingerprintOfRecord));
      cache.set(branch.id, fingerprints);
    }
    loaded.push({ branch, fingerprints });
  }
  return loaded;
}

function commonPrefix(left: readonly string[], right: readonly Turn[]): number {
  const limit = Math.min(left.length, right.length);
  let index = 0;
  while (index < limit && left[index] === right[index].fingerprint) index += 1;
  return index;
}

/**
 * The best branch for `turns`: longest common prefix first; among equals the
 * `preferred` branch (where the request was recorded), then one that ends
 * exactly there (append without forking), then the oldest (an ancestor
 * before its forks, so a new fork hangs where the histories part).
 */
function chooseBranch(loaded: LoadedBranch[], turns: readonly Turn[], preferred: string | undefined) {
  let best: { entry: LoadedBranch; common: number; score: number } | null = null;
  for (const entry of loaded) {
    const common = commonPrefix(entry.fingerprints, turns);
    const score = (entry.branch.id === preferred ? 2 : 0) + (entry.fingerprints.length === common ? 1 : 0);
    if (!best || common > best.common || (common === best.common && score > best.score)) best = { entry, common, score };
  }
  if (!best) throw new Error("a conversation without branches cannot be recorded into");
  return best;
}

/**
 * Finds or makes the branch `turns` belong on: forks when they diverge from
 * every recorded history. Appending the remaining `turns.slice(common)` is
 * the caller's (with `expectedLength: common`, so a concurrent writer is
 * detected and the placement redone).
 */
export async function placeTurns(db: Database, conversationId: string, turns: readonly Turn[], preferred?: string): Promise<Placement> {
  const { entry, common } = chooseBranch(await loadBranches(db, conversationId), turns, preferred);
  if (common === turns.length || entry.fingerprints.length === common) return { branch: entry.branch, common, forked: null };
  const forked = await forkBranch(db, entry.branch.id, { position: common });
  conversationCache(db, conversationId).set(forked.id, entry.fingerprints.slice(0, common));
  return { branch: forked, common, forked };
}

/** Where `turns` would be placed, read-only: the branch with the longest common prefix and its length (nothing is forked or written). */
export async function locateTurns(db: Database, conversationId: string, turns: readonly Turn[]): Promise<{ branch: BranchRecord; common: number }> {
  const { entry, common } = chooseBranch(await loadBranches(db, conversationId), turns, undefined);
  return { branch: entry.branch, common };
}

/** Notes messages just appended, so the next placement need not read them back. */
export function rememberAppended(db: Database, conversationId: string, branchId: string, records: readonly MessageRecord[]): void {
  if (records.length === 0) return;
  const cache = conversationCache(db, conversationId);
  const known = cache.get(branchId);
  const start = records[0].position;
  // Only a cache that holds exactly the history before the append can be extended; otherwise reload next time.
  if (!known || known.length < start) {
    cache.delete(branchId);
    return;
  }
  cache.set(branchId, known.slice(0, start).concat(records.map(fingerprintOfRecord)));
}

/** Drops a conversation's cached fingerprints (after it was deleted, or in tests). */
export function forgetConversation(db: Database, conversationId: string): void {
  globalForCache[CACHE_KEY]?.get(db)?.delete(conversationId);
}
