import type { ContentPart, Message, ToolCall } from "@/lib/context";
import { buildMessage } from "@/lib/formats/canonical";

/**
 * One reply as one assistant message: a response whose output the reader
 * split into several assistant turns (text, then reasoning, then calls) is
 * recorded as their parts and calls in order, since the recorder keeps one
 * reply per call.
 */
export function oneReply(messages: readonly Message[]): Message | null {
  const assistants = messages.filter((message) => message.role === "assistant");
  if (assistants.length <= 1) return assistants[0] ?? null;
  const parts: ContentPart[] = [];
  const calls: ToolCall[] = [];
  for (const message of assistants) {
    parts.push(...(message.parts ?? (message.content ? [{ type: "text" as const, text: message.content }] : [])));
    calls.push(...(message.tool_calls ?? []));
  }
  return buildMessage("assistant", parts, { tool_calls: calls });
}
