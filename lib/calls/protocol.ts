import type { WireFormat } from "@/lib/formats/types";

type Body = Record<string, unknown>;

const isBody = (value: unknown): value is Body => typeof value === "object" && value !== null && !Array.isArray(value);

function fromResponse(response: Body): WireFormat | null {
  if (response.object === "chat.completion" || response.object === "chat.completion.chunk") return "openai-chat";
  if (response.object === "response") return "openai-responses";
  if (response.type === "message" || (response.type === "error" && isBody(response.error))) return "anthropic";
  if (Array.isArray(response.candidates)) return "gemini";
  return null;
}

function hasAnthropicBlocks(messages: unknown[]): boolean {
  return messages.some(
    (message) =>
      isBody(message) &&
      Array.isArray(message.content) &&
      message.content.some((block) => isBody(block) && (block.type === "tool_use" || block.type === "tool_result")),
  );
}

function fromRequest(request: Body): WireFormat | null {
  if (Array.isArray(request.contents)) return "gemini";
  if (request.input !== undefined && request.messages === undefined) return "openai-responses";
  if (!Array.isArray(request.messages)) return null;
  // Anthropic's system prompt is a field, never a message; its tool calls are content blocks.
  if (request.system !== undefined || hasAnthropicBlocks(request.messages)) return "anthropic";
  return "openai-chat";
}

/**
 * The wire format of a recorded call (CA-1): the answer's shape when it names
 * one (`chat.completion`, `response`, an Anthropic `message`, Gemini
 * candidates), else the request's (`contents`, `input`, Anthropic's `system`
 * field or content blocks, else chat `messages`).
 */
export function protocolOfCall(request: unknown, response: unknown): WireFormat | null {
  return (isBody(response) ? fromResponse(response) : null) ?? (isBody(request) ? fromRequest(request) : null);
}
