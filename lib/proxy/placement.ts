import "server-only";
import type { Message } from "@/lib/context";
import { forkBranch, getBranchesByConversationId, getHistoryByBranchId, type BranchRecord, type Database, type JsonValue, type MessageRecord } from "@/lib/db";
import { leadingSystemCount, SYSTEM_PROMPT_METADATA, systemPromptChange, systemPromptChangeOf, type SystemPromptChange } from "@/lib/formats";
import { messageFingerprint } from "./canonical";
import type { RecordTurn } from "./record-turns";
import { perDatabase } from "@/lib/db/per-database";

/**
 * Where a recorded sequence of messages belongs in a conversation's branch
 * tree (P-SP1). The turns after the system prompt are compared with each
 * branch's turns after its stored system prompt, by message fingerprints;
 * the branch with the longest common prefix wins. The sequence then already
 * exists (nothing to write), extends that branch (append), or diverges inside
 * it (fork at the first differing position, then append). A system prompt
 * other than the one in effect where the new turns go is not a divergence:
 * the first new turn carries it (`metadata.systemPrompt`, P-SP2).
 */

/** One message to place, with the fingerprint it is compared by. */
export interface Turn {
  message: Message;
  fingerprint: string;
}

export interface Placement {
  /** The branch whose history will equal the sequence. */
  branch: BranchRecord;
  /** Messages of the branch before the new turns: the length to append at. */
  common: number;
  /** The fork made for this placement, if any. */
  forked: BranchRecord | null;
  /** The turns to append, in order (the system prompt only when the branch is empty). */
  fresh: Turn[];
  /** The prompt the sequence was sent with when it differs from the one in effect where `fresh` goes (P-SP2), else null. */
  systemPrompt: SystemPromptChange | null;
}

/** The fingerprint a stored message is compared by: the one the proxy recorded with it, else its own. */
export function fingerprintOfRecord(record: MessageRecord): string {
  const recorded = record.metadata?.fingerprint;
  return typeof recorded === "string" ? recorded : messageFingerprint(record.message);
}

/** What placing needs of a branch's stored history; grown as the branch grows (raw turns are immutable). */
interface BranchIndex {
  fingerprints: string[];
  /** How many stored messages at the start are system messages: the prompt the branch began with. */
  leadingSystem: number;
  /** The turns that carry a system-prompt change (P-SP2), in position order, with the prompt's fingerprint. */
  prompts: { position: number; fingerprint: string }[];
}

/** Each conversation's branch indexes, per database client. */
/** Conversations kept; the least recently used are dropped first. */
const MAX_CACHED_CONVERSATIONS = 500;
const conversationsOf = perDatabase<Map<string, BranchIndex>>("branch-fingerprints", MAX_CACHED_CONVERSATIONS, { refreshOnRead: true });

function conversationCache(db: Database, conversationId: string): Map<string, BranchIndex> {
  const conversations = conversationsOf(db);
  let branches = conversations.get(conversationId);
  if (!branches) {
    branches = new Map();
    conversations.set(conversationId, branches);
  }
  return branches;
}

const emptyIndex = (): BranchIndex => ({ fingerprints: [], leadingSystem: 0, prompts: [] });

/** `index` followed by `records`, which start at its length. */
function extendIndex(index: BranchIndex, records: readonly MessageRecord[]): BranchIndex {
  const next: BranchIndex = { fingerprints: [...index.fingerprints], leadingSystem: index.leadingSystem, prompts: [...index.prompts] };
  for (const record of records) {
    if (record.message.role === "system" && next.leadingSystem === next.fingerprints.length) next.leadingSystem += 1;
    const change = systemPromptChangeOf(record.metadata);
    if (change) next.prompts.push({ position: record.position, fingerprint: change.fingerprint });
    next.fingerprints.push(fingerprintOfRecord(record));
  }
  return next;
}

/** The branch's first `length` messages' index: what a fork made there inherits. */
function truncateIndex(index: BranchIndex, length: number): BranchIndex {
  return {
    fingerprints: index.fingerprints.slice(0, length),
    leadingSystem: Math.min(index.leadingSystem, length),
    prompts: index.prompts.filter((prompt) => prompt.position < length),
  };
}

/** P-SP2: the fingerprint of the system prompt in effect before `position`: the last change before it, else the stored one. */
function promptBefore(index: BranchIndex, position: number): string {
  const change = index.prompts.findLast((prompt) => prompt.position < position);
  return change ? change.fingerprint : index.fingerprints.slice(0, index.leadingSystem).join(",");
}

interface LoadedBranch {
  branch: BranchRecord;
  index: BranchIndex;
}

async function loadBranches(db: Database, conversationId: string): Promise<LoadedBranch[]> {
  const branches = await getBranchesByConversationId(db, conversationId);
  const cache = conversationCache(db, conversationId);
  const loaded: LoadedBranch[] = [];
  for (const branch of branches) {
    let index = cache.get(branch.id) ?? emptyIndex();
    if (index.fingerprints.length > branch.length) index = emptyIndex();
    if (index.fingerprints.length < branch.length)
      index = extendIndex(index, await getHistoryByBranchId(db, branch.id, { fromPosition: index.fingerprints.length }));
    // Kept also when nothing had to be read (a new, empty branch), so that the append that follows extends it (`rememberAppended`).
    cache.set(branch.id, index);
    loaded.push({ branch, index });
  }
  return loaded;
}

/** A request's turns split into its system prompt and the rest. */
interface RequestTurns {
  turns: readonly Turn[];
  system: number;
  prompt: string;
}

function requestOf(turns: readonly Turn[]): RequestTurns {
  const system = leadingSystemCount(turns.map((turn) => turn.message));
  return {
    turns,
    system,
    prompt: turns
      .slice(0, system)
      .map((turn) => turn.fingerprint)
      .join(","),
  };
}

/**
 * P-SP1: how `request` lines up with a branch: the turns after the system
 * prompts are compared, the branch's stored prompt standing where the
 * request's was. A branch that shares nothing with it (an empty one) takes
 * the request whole, its system prompt in front.
 */
function lineUp(index: BranchIndex, request: RequestTurns): { common: number; fresh: readonly Turn[] } {
  const base = index.leadingSystem;
  const sequence = request.turns.slice(request.system);
  let shared = 0;
  while (base + shared < index.fingerprints.length && shared < sequence.length && index.fingerprints[base + shared] === sequence[shared].fingerprint)
    shared += 1;
  if (base + shared === 0) return { common: 0, fresh: request.turns };
  return { common: base + shared, fresh: sequence.slice(shared) };
}

/**
 * The best branch for `request`: longest common prefix first; among equals the
 * `preferred` branch (where the request was recorded), then one that ends
 * exactly there (append without forking), then the oldest (an ancestor
 * before its forks, so a new fork hangs where the histories part).
 */
function chooseBranch(loaded: LoadedBranch[], request: RequestTurns, preferred: string | undefined) {
  let best: { entry: LoadedBranch; common: number; fresh: readonly Turn[]; score: number } | null = null;
  for (const entry of loaded) {
    const { common, fresh } = lineUp(entry.index, request);
    const score = (entry.branch.id === preferred ? 2 : 0) + (entry.index.fingerprints.length === common ? 1 : 0);
    if (!best || common > best.common || (common === best.common && score > best.score)) best = { entry, common, fresh, score };
  }
  if (!best) throw new Error("a conversation without branches cannot be recorded into");
  return best;
}

/** P-SP2: the request's system prompt when it is not the one in effect where its new turns go (at position 0 it is stored in front). */
function changedPrompt(index: BranchIndex, common: number, request: RequestTurns): SystemPromptChange | null {
  if (common === 0 || promptBefore(index, common) === request.prompt) return null;
  return systemPromptChange(request.turns.slice(0, request.system).map((turn) => turn.message));
}

/**
 * Finds or makes the branch `turns` belong on: forks when they diverge from
 * every recorded history. Appending `fresh` is the caller's (with
 * `expectedLength: common`, so a concurrent writer is detected and the
 * placement redone), the first of them carrying `systemPrompt` (`withSystemPrompt`).
 */
export async function placeTurns(db: Database, conversationId: string, turns: readonly Turn[], preferred?: string): Promise<Placement> {
  const request = requestOf(turns);
  const { entry, common, fresh } = chooseBranch(await loadBranches(db, conversationId), request, preferred);
  const systemPrompt = changedPrompt(entry.index, common, request);
  if (fresh.length === 0 || entry.index.fingerprints.length === common) return { branch: entry.branch, common, forked: null, fresh: [...fresh], systemPrompt };
  const forked = await forkBranch(db, entry.branch.id, { position: common });
  conversationCache(db, conversationId).set(forked.id, truncateIndex(entry.index, common));
  return { branch: forked, common, forked, fresh: [...fresh], systemPrompt };
}

/** P-SP2: the turns to append with the placement's system-prompt change on the first of them. */
export function withSystemPrompt(turns: RecordTurn[], placement: Placement): RecordTurn[] {
  if (placement.systemPrompt === null || turns.length === 0) return turns;
  const [first, ...others] = turns;
  return [{ ...first, metadata: { ...first.metadata, [SYSTEM_PROMPT_METADATA]: placement.systemPrompt as unknown as JsonValue } }, ...others];
}

/** Where `turns` would be placed, read-only: the branch with the longest common prefix and its length (nothing is forked or written). */
export async function locateTurns(db: Database, conversationId: string, turns: readonly Turn[]): Promise<{ branch: BranchRecord; common: number }> {
  const { entry, common } = chooseBranch(await loadBranches(db, conversationId), requestOf(turns), undefined);
  return { branch: entry.branch, common };
}

/** Notes messages just appended, so the next placement need not read them back. */
export function rememberAppended(db: Database, conversationId: string, branchId: string, records: readonly MessageRecord[]): void {
  if (records.length === 0) return;
  const cache = conversationCache(db, conversationId);
  const known = cache.get(branchId);
  const start = records[0].position;
  // Only a cache that holds exactly the history before the append can be extended; otherwise reload next time.
  if (!known || known.fingerprints.length < start) {
    cache.delete(branchId);
    return;
  }
  cache.set(branchId, extendIndex(truncateIndex(known, start), records));
}

/** Drops a conversation's cached fingerprints (after it was deleted, or in tests). */
export function forgetConversation(db: Database, conversationId: string): void {
  conversationsOf(db).delete(conversationId);
}
