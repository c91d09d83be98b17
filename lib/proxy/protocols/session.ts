import "server-only";
import { createHash } from "node:crypto";
import { getHistoryByBranchId, getRootBranchByConversationId, type BranchRecord, type Database, type MessageRecord } from "@/lib/db";
import type { Message, Role } from "@/lib/context";
import { leadingSystemCount } from "@/lib/formats";
import { messageFingerprint } from "../canonical";
import { lookupConversation } from "../conversations";
import type { AgentIdentity } from "../identify";
import { perDatabase } from "@/lib/db/per-database";
import { fingerprintOfRecord } from "../placement";
import { continuesStoredResponses } from "./continuation";

const MAX_CACHED = 1_000;
/** Each conversation's opening turn (the first after its system prompt) by fingerprint; recorded messages never change. */
const openingTurns = perDatabase<string>("opening-turns", MAX_CACHED);
/**
 * The opening turn of a key's first request while its conversation is not
 * recorded yet: an agent's next request can arrive before the recording of
 * its first, and must be judged by arrival order.
 */
const pendingOpeningTurns = perDatabase<string>("pending-opening-turns", MAX_CACHED);
/** The opening turn is looked for among this many first messages: system prompts longer than that are not told apart. */
const OPENING_WITHIN = 32;
/** The roles an opening turn has: anything but a system prompt. */
const OPENING_ROLES: ReadonlySet<Role> = new Set(["user", "assistant", "tool"]);

/** The fingerprint of the first message after the system prompt, or null when the request has none. */
function openingOf(messages: readonly Message[]): string | null {
  const opening = messages[leadingSystemCount(messages)];
  return opening ? messageFingerprint(opening) : null;
}

/** The conversation's recorded opening turn; undefined while none is recorded. */
async function recordedOpening(db: Database, conversationId: string): Promise<string | undefined> {
  const cache = openingTurns(db);
  const cached = cache.get(conversationId);
  if (cached !== undefined) return cached;
  const root = await getRootBranchByConversationId(db, conversationId);
  const [first] = await getHistoryByBranchId(db, root.id, { toPosition: OPENING_WITHIN, roles: [...OPENING_ROLES] });
  if (!first) return undefined;
  const opening = fingerprintOfRecord(first);
  cache.set(conversationId, opening);
  return opening;
}

/**
 * Notes a conversation's opening turn as the recorder appends it, so that
 * the agent's next requests need not read it back: only from the first
 * append to the conversation's root branch (position 0), which holds its
 * opening when any of its turns is more than a system prompt.
 */
export function rememberOpening(db: Database, conversationId: string, branch: BranchRecord, appended: readonly MessageRecord[]): void {
  if (branch.parentId !== null || appended[0]?.position !== 0) return;
  const first = appended.find((record) => record.position < OPENING_WITHIN && OPENING_ROLES.has(record.message.role));
  if (first) openingTurns(db).set(conversationId, fingerprintOfRecord(first));
}

/**
 * P-S3: the record key of the request's conversation, by history continuity.
 * A request continues the key's conversation when its first turn after the
 * system prompt is the one the conversation began with, whatever the system
 * prompt says (it may carry a clock or a memory block: P-SP1). A request
 * that opens otherwise is an independent run under the key and belongs to a
 * conversation of its own, `<key>#<hash of its opening turn>`. A request
 * without turns after its system prompt, or a key whose conversation has
 * nothing recorded yet, keeps the key; so does a conversation named by the
 * `X-Context-Lab-Conversation` header (the agent said where to record: a new
 * opening forks there), and a Responses request that
 * continues stored responses the proxy could not resolve (its input is not
 * where the run began: P-R4). `body` is the request the messages were read
 * from as they came.
 */
export async function conversationKeyOf(
  db: Database,
  identity: AgentIdentity,
  messages: readonly Message[],
  options: { body?: Record<string, unknown> } = {},
): Promise<string> {
  const opening = openingOf(messages);
  if (opening === null || identity.via === "header" || (options.body && continuesStoredResponses(options.body))) return identity.key;
  const pending = pendingOpeningTurns(db);
  const conversation = await lookupConversation(db, identity.key);
  let first = conversation ? await recordedOpening(db, conversation.id) : undefined;
  if (first === undefined) {
    first = pending.get(identity.key);
    if (first === undefined) pending.set(identity.key, opening);
  } else {
    pending.delete(identity.key);
  }
  if (first === undefined || first === opening) return identity.key;
  return `${identity.key}#${createHash("sha256").update(opening).digest("hex").slice(0, 8)}`;
}
