import type { Message, ToolDefinition } from "@/lib/context";
import { messageFingerprint } from "@/lib/context/light";
import { ConversionContext, FormatError, readChatMessage, readChatRequest } from "@/lib/formats";
import { ProxyRequestError } from "./errors";

/**
 * OpenAI Chat bodies ↔ canonical messages for the proxy, through the one
 * converter (`lib/formats`): the proxy never reads wire messages itself. The
 * canonical message loses nothing (content parts, the developer role, legacy
 * function calls are held as parts and provider extras), so a message the
 * pipeline leaves alone is written back as the agent sent it. Histories are
 * compared by `messageFingerprint` (F-4), never by their raw JSON.
 */

export { messageFingerprint };

/** A chat completion request, read. */
export interface ChatCompletionRequest {
  /** The agent's body as it came. */
  body: Record<string, unknown>;
  messages: Message[];
  /** The request's tools (`functions` included); null when it sent none. */
  tools: ToolDefinition[] | null;
}

function requestError(error: FormatError): ProxyRequestError {
  const first = error.issues[0];
  const where = first?.pathText ? `${first.pathText}: ` : "";
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problems)` : "";
  return new ProxyRequestError(`${where}${first?.message ?? error.message}${more}`, first?.pathText || null);
}

/** Reads a chat completion request body; `ProxyRequestError` names the field at fault (`messages[3].role`). */
export function readChatCompletionRequest(body: unknown): ChatCompletionRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ProxyRequestError("the request body must be a JSON object with model and messages");
  try {
    const read = readChatRequest(body);
    return { body: body as Record<string, unknown>, messages: read.messages, tools: read.tools ?? null };
  } catch (error) {
    if (FormatError.isInstance(error)) throw requestError(error);
    throw error;
  }
}

/** A completion's assistant message (`choices[0].message`) as a canonical message, or null when it is not one. */
export function readChatReply(message: Record<string, unknown>): Message | null {
  const context = new ConversionContext("openai-chat", ["choices", 0, "message"]);
  const reply = readChatMessage({ ...message, role: "assistant" }, context);
  return reply !== undefined && context.issues.length === 0 ? reply : null;
}
