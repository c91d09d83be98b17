import "server-only";
import { addUsageTokens, ZERO_USAGE_TOKENS, type UsageTokens } from "@/lib/context/light";
import { callFactsOf } from "@/lib/formats";
import {
  getCheckpointOutlinesByBranchId,
  getConversationById,
  getHistoryByBranchId,
  getHistoryTotalsByBranchId,
  getRootBranchByConversationId,
  getSubagentsByConversationId,
  type ConversationOrigin,
  type Database,
} from "@/lib/db";

/** Reported usage summed over calls, in the shape of one call's tokens (F-SF1). */
export type UsageTotals = UsageTokens & { calls: number };

/** A subagent as its parent's workspace shows it: beside the call that started it. */
export interface SubagentSummary {
  conversationId: string;
  title: string;
  /** The parent's tool call that started it, when known. */
  callId: string | null;
  messages: number;
  tokens: number;
  usage: UsageTotals;
}

/** A compaction the agent made, as saved on the branch (IM-11). */
export interface CompactionSummary {
  checkpointId: string;
  version: number;
  /** The first position after the compaction: the messages before it were replaced. */
  position: number;
  trigger: string | null;
  tokensBefore: number | null;
  tokensAfter: number | null;
  summary: string | null;
  at: string | null;
}

/** What the workspace shows of a conversation as an agent's session: where it came from, its subagents, compactions and reported usage. */
export interface SessionOverview {
  origin: ConversationOrigin | null;
  parent: { conversationId: string; title: string; callId: string | null } | null;
  subagents: SubagentSummary[];
  compactions: CompactionSummary[];
  /** The branch's own calls' reported usage. */
  usage: UsageTotals;
  /** With every subagent's calls too: what the whole session used. */
  sessionUsage: UsageTotals;
}

export function emptyUsage(): UsageTotals {
  return { ...ZERO_USAGE_TOKENS, calls: 0 };
}

/** `usage` added to the totals: one call, or `usage.calls` of them when it is a total itself. */
export function addUsage(total: UsageTotals, usage: UsageTokens & { calls?: number }): UsageTotals {
  return { ...addUsageTokens(total, usage), calls: total.calls + (usage.calls ?? 1) };
}

/** The reported usage of a branch's assistant messages, each call once (its first message carries it: I10). */
async function usageOfBranch(db: Database, branchId: string): Promise<UsageTotals> {
  const answers = await getHistoryByBranchId(db, branchId, { roles: ["assistant"] });
  let total = emptyUsage();
  for (const record of answers) {
    const usage = callFactsOf(record.metadata)?.usage;
    if (usage !== undefined) total = addUsage(total, usage);
  }
  return total;
}

const numberOrNull = (value: unknown) => (typeof value === "number" ? value : null);
const textOrNull = (value: unknown) => (typeof value === "string" ? value : null);

/** The session overview of a conversation, for one of its branches (its root by default). */
export async function getSessionOverview(db: Database, conversationId: string, branchId?: string): Promise<SessionOverview> {
  const conversation = await getConversationById(db, conversationId);
  const branch = branchId ?? (await getRootBranchByConversationId(db, conversationId)).id;
  const parent = conversation.parentId === null ? null : await getConversationById(db, conversation.parentId).catch(() => null);
  const subagents: SubagentSummary[] = [];
  for (const subagent of await getSubagentsByConversationId(db, conversationId)) {
    const root = await getRootBranchByConversationId(db, subagent.id);
    const totals = await getHistoryTotalsByBranchId(db, root.id);
    subagents.push({
      conversationId: subagent.id,
      title: subagent.title,
      callId: subagent.parentCallId,
      messages: totals.messages,
      tokens: totals.tokens,
      usage: await usageOfBranch(db, root.id),
    });
  }
  const outlines = await getCheckpointOutlinesByBranchId(db, branch, { inherited: true });
  const compactions = outlines
    .filter((outline) => outline.metadata?.reason === "agent-compaction")
    .map((outline) => ({
      checkpointId: outline.id,
      version: outline.version,
      position: outline.messageCount,
      trigger: textOrNull(outline.metadata?.trigger),
      tokensBefore: numberOrNull(outline.metadata?.tokensBefore),
      tokensAfter: numberOrNull(outline.metadata?.tokensAfter),
      summary: textOrNull(outline.metadata?.summary),
      at: textOrNull(outline.metadata?.at),
    }));
  const usage = await usageOfBranch(db, branch);
  return {
    origin: conversation.origin,
    parent: parent === null ? null : { conversationId: parent.id, title: parent.title, callId: conversation.parentCallId },
    subagents,
    compactions,
    usage,
    sessionUsage: subagents.reduce((total, subagent) => addUsage(total, subagent.usage), usage),
  };
}
