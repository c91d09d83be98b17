import type { Message, ToolDefinition } from "@/lib/context/light";
import { writeChatRequest } from "@/lib/formats/openai-chat/write";

/** An OpenAI Chat Completions request body, as the next call sends it. */
export interface ChatRequestBody {
  model: string;
  messages: Record<string, unknown>[];
  tools?: Record<string, unknown>[];
  /** Legacy `functions` tools go back as the agent declared them. */
  functions?: Record<string, unknown>[];
  max_tokens: number;
}

/**
 * The JSON body the next call sends: model, messages and tools written by the
 * one OpenAI Chat writer (`lib/formats`, so content parts and provider fields
 * survive), and the reply's limit. The Prompt tab shows it and the recording
 * proxy forwards it, so the two cannot differ.
 */
export function chatRequestBody(request: {
  model: string;
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  maxTokens: number;
}): ChatRequestBody {
  const written = writeChatRequest({ messages: request.messages, tools: request.tools }).value as Omit<ChatRequestBody, "model" | "max_tokens">;
  return { model: request.model, ...written, max_tokens: request.maxTokens };
}
