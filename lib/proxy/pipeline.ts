import "server-only";
import { buildRequest, type Message, type TokenBudgetExceeded, type ToolDefinition } from "@/lib/context";
import type { ConversationRecord, Database } from "@/lib/db";
import { conversationSettings } from "@/lib/settings/server";
import { toWire, type CanonicalMessage } from "./canonical";

export interface PipelineStepSummary {
  processor: string;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
}

/** What the request builder made of a request's messages. */
export interface PipelineOutcome {
  /** The messages to send, in wire form. */
  messages: Record<string, unknown>[];
  /** The tools to send: the agent's, plus `reload_offloaded` when offloaded content is sent. */
  tools: ToolDefinition[];
  exceeded: TokenBudgetExceeded | null;
  /** What each processor did, for the reply's metadata. */
  steps: PipelineStepSummary[];
}

/** True when the conversation asks for its outgoing requests to go through the context pipeline. */
export function wantsPipeline(conversation: ConversationRecord | null): conversation is ConversationRecord {
  return conversation?.settings.applyPipeline === true;
}

/**
 * Builds the request with the conversation's settings (the one request
 * builder) from the request's messages and tool definitions. Messages the
 * builder left untouched are sent in the agent's own wire form, so images and
 * other parts survive; changed or new ones go in canonical form.
 */
export async function runPipeline(db: Database, conversation: ConversationRecord, messages: CanonicalMessage[], tools: ToolDefinition[] | null): Promise<PipelineOutcome> {
  const settings = await conversationSettings(db, conversation);
  const originals = new Map<Message, Record<string, unknown>>();
  for (const { message, wire } of messages) originals.set(message, wire ?? toWire(message));
  const built = await buildRequest({ history: messages.map(({ message }) => message), policy: settings.policy, tools: tools ?? [] });
  return {
    messages: built.messages.map((message) => originals.get(message) ?? toWire(message)),
    tools: built.tools,
    exceeded: built.verdict.ok ? null : { budget: built.verdict.limit, tokens: built.verdict.tokens.total },
    steps: built.trace.steps.map(({ processor, messagesBefore, messagesAfter, tokensBefore, tokensAfter }) => ({
      processor,
      messagesBefore,
      messagesAfter,
      tokensBefore,
      tokensAfter,
    })),
  };
}
