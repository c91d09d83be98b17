import "server-only";
import { keepsMemory, type Message, type ToolDefinition } from "@/lib/context";
import { getBranchScope, type ConversationRecord, type Database } from "@/lib/db";
import { emptySnapshot, type MemorySnapshot, type NextRequest } from "@/lib/request";
import { nextRequest } from "@/lib/request/next";
import { loadMemorySnapshot } from "@/lib/request/server";
import { normalizeSettings } from "@/lib/settings";
import { conversationSettings } from "@/lib/settings/server";
import { messageFingerprint } from "./canonical";
import { locateTurns } from "./placement";

export interface PipelineStepSummary {
  processor: string;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
}

/** What the request builder made of a request's messages (protocol-neutral: the protocol writes `request` in its own format). */
export interface PipelineOutcome {
  /** The one builder's request: canonical messages, tools (`reload_offloaded` when markers are sent), verdict, offloaded content. */
  request: NextRequest;
  /** The branch the request's messages were placed on (read-only). */
  branchId: string;
  /** The builder's refusal (E-RB3), with its figures; null when the request may be sent. */
  exceeded: { budget: number; tokens: number; reason: string | null } | null;
  /** What each processor did, for the reply's metadata. */
  steps: PipelineStepSummary[];
  /** The reply limit the settings set themselves (PX-L1); null when they leave it to the model. */
  outputLimit: number | null;
}

/** True when the conversation asks for its outgoing requests to go through the context pipeline. */
export function wantsPipeline(conversation: ConversationRecord | null): conversation is ConversationRecord {
  return conversation !== null && normalizeSettings(conversation.settings).settings.applyPipeline;
}

/**
 * The next request for a proxied call (PX-P1), made as every other surface
 * makes it (E-RB1): the request's messages are placed on the conversation's
 * branches read-only (the branch with the longest common prefix), that
 * branch's persisted memory is the snapshot when the request carries all it
 * covers, and `nextRequest` builds with the conversation's settings. The raw
 * history is the agent's own messages, which equal the stored turns by
 * fingerprint and hold the full text where the store keeps an artifact
 * pointer, so the active round always goes whole.
 */
export async function buildProxiedRequest(
  db: Database,
  conversation: ConversationRecord,
  messages: readonly Message[],
  tools: ToolDefinition[] | null,
): Promise<PipelineOutcome> {
  const settings = await conversationSettings(db, conversation);
  const { branch, common } = await locateTurns(
    db,
    conversation.id,
    messages.map((message) => ({ message, fingerprint: messageFingerprint(message) })),
  );
  let snapshot: MemorySnapshot = emptySnapshot(branch.id);
  // E-RB9: the persisted summary and retrieved memories apply only while the summarize processor is on.
  if (common > 0 && keepsMemory(settings.policy)) {
    const stored = await loadMemorySnapshot(db, await getBranchScope(db, branch.id), common);
    // A summary that covers turns this request does not carry describes another history.
    if (stored.coveredUntil <= common) snapshot = stored;
  }
  const request = await nextRequest({
    records: messages.map((message, position) => ({ position, message })),
    snapshot,
    settings,
    // The tools the agent sent with this call: what goes upstream is counted, never the conversation's earlier tools.
    tools: tools ?? [],
  });
  const { verdict } = request;
  return {
    request,
    branchId: branch.id,
    exceeded: verdict.ok ? null : { budget: verdict.limit, tokens: verdict.tokens.total, reason: verdict.reason ?? null },
    steps: request.trace.steps.map(({ processor, messagesBefore, messagesAfter, tokensBefore, tokensAfter }) => ({
      processor,
      messagesBefore,
      messagesAfter,
      tokensBefore,
      tokensAfter,
    })),
    outputLimit: settings.sources.maxOutputTokens === "settings" ? settings.policy.maxOutputTokens : null,
  };
}
