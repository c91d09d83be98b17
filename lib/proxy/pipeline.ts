import "server-only";
import { processHistory, type Message, type TokenBudgetExceeded, type ToolDefinition } from "@/lib/context";
import type { ConversationRecord } from "@/lib/db";
import { toEngine } from "@/lib/playground/settings";
import { toWire, type CanonicalMessage } from "./canonical";
import { settingsOfConversation } from "@/lib/memory";

export interface PipelineStepSummary {
  processor: string;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
}

/** What the context pipeline made of a request's messages. */
export interface PipelineOutcome {
  /** The messages to send, in wire form. */
  messages: Record<string, unknown>[];
  exceeded: TokenBudgetExceeded | null;
  /** What each processor did, for the reply's metadata. */
  steps: PipelineStepSummary[];
}

/** True when the conversation asks for its outgoing requests to go through the context pipeline. */
export function wantsPipeline(conversation: ConversationRecord | null): conversation is ConversationRecord {
  return conversation?.settings.applyPipeline === true;
}

/**
 * Runs the conversation's context pipeline (its settings through `toEngine`,
 * the request's tool definitions passed) over the request's messages.
 * Messages the pipeline left untouched are sent in the agent's own wire
 * form, so images and other parts survive; changed or new ones go in
 * canonical form.
 */
export async function runPipeline(conversation: ConversationRecord, messages: CanonicalMessage[], tools: ToolDefinition[] | null): Promise<PipelineOutcome> {
  const { config, dependencies } = toEngine(settingsOfConversation(conversation));
  const originals = new Map<Message, Record<string, unknown>>();
  for (const { message, wire } of messages) originals.set(message, wire ?? toWire(message));
  const result = await processHistory(
    messages.map(({ message }) => message),
    { config, ...dependencies, tools: tools ?? undefined },
  );
  return {
    messages: result.history.map((message) => originals.get(message) ?? toWire(message)),
    exceeded: result.exceeded ?? null,
    steps: result.trace.steps.map(({ processor, messagesBefore, messagesAfter, tokensBefore, tokensAfter }) => ({
      processor,
      messagesBefore,
      messagesAfter,
      tokensBefore,
      tokensAfter,
    })),
  };
}
