/**
 * Broken tool pairing is a warning, not an import error: the messages are kept
 * as they are, and the engine's `sanitizeHistory` repairs them later. The rule
 * is the API's: results answer the calls of the assistant message just before them.
 */
import type { Message } from "@/lib/context/messages";
import type { ImportWarning } from "./types";

/** Warnings for tool results without a call and calls whose results never came. */
export function findPairingWarnings(messages: readonly Message[]): ImportWarning[] {
  const warnings: ImportWarning[] = [];
  // Ids still waiting for a result, with the index of the asking message; ids are reused across turns.
  let open = new Map<string, number>();
  const closeOpen = () => {
    for (const [id, messageIndex] of open) {
      warnings.push({
        code: "unanswered-tool-call",
        message: `message ${messageIndex}: tool call '${id}' has no tool result after it`,
        messageIndex,
      });
    }
    open = new Map();
  };
  messages.forEach((message, messageIndex) => {
    if (message.role === "tool") {
      const id = message.tool_call_id ?? "";
      if (open.delete(id)) return;
      warnings.push({
        code: "orphan-tool-result",
        message: `message ${messageIndex}: tool result '${id}' has no assistant tool call just before it`,
        messageIndex,
      });
      return;
    }
    closeOpen();
    for (const call of message.tool_calls ?? []) open.set(call.id, messageIndex);
  });
  closeOpen();
  return warnings;
}
