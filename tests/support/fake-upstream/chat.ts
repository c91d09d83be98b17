/**
 * The 400 Chat Completions answers when an assistant's tool calls are not
 * each answered by the tool messages right after it, or a tool message
 * answers no call before it; else null.
 */
export function chatPairingError(messages: unknown): unknown {
  if (!Array.isArray(messages)) return null;
  let open: string[] = [];
  let opener = -1;
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as { role?: string; tool_calls?: { id?: string }[]; tool_call_id?: string };
    if (message.role === "tool") {
      if (!open.includes(String(message.tool_call_id))) {
        return invalid(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${index}].role`,
        );
      }
      open = open.filter((id) => id !== message.tool_call_id);
      continue;
    }
    if (open.length > 0) return unanswered(open, opener);
    open = (message.role === "assistant" ? (message.tool_calls ?? []) : []).map((call) => String(call.id));
    opener = index;
  }
  return open.length > 0 && opener < messages.length - 1 ? unanswered(open, opener) : null;
}

function unanswered(ids: string[], index: number) {
  return invalid(
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${ids.join(", ")}`,
    `messages.[${index}].role`,
  );
}

function invalid(message: string, param: string) {
  return { error: { message, type: "invalid_request_error", param, code: null } };
}
