import type { Message, ToolCall } from "./messages";

/** What `sanitizeHistory` changed, with the index in the history it was given. */
export interface HistoryRepair {
  kind: "orphan-tool-result" | "duplicate-tool-result" | "unanswered-tool-call" | "empty-assistant-dropped";
  index: number;
  toolCallId?: string;
  message: string;
}

export interface SanitizeResult {
  history: Message[];
  repairs: HistoryRepair[];
}

export interface SanitizeOptions {
  /**
   * Keep tool calls at the very end of the history whose results have not come
   * yet (a recorder mid-turn). Off by default: a model call must not carry them.
   */
  allowPendingToolCalls?: boolean;
}

/**
 * Repairs a history so every tool result answers a call right before it and
 * every call has its result (P1). Results match the nearest preceding call
 * with their id, positionally, because agents reuse ids (`call_0`) across
 * turns. A valid history comes back unchanged (same array) with no repairs.
 * @example const { history, repairs } = sanitizeHistory(imported)
 */
export function sanitizeHistory(history: readonly Message[], options: SanitizeOptions = {}): SanitizeResult {
  const repairs: HistoryRepair[] = [];
  const out: Message[] = [];
  let changed = false;
  let index = 0;
  while (index < history.length) {
    const message = history[index];
    if (message.role === "tool") {
      repairs.push({
        kind: "orphan-tool-result",
        index,
        toolCallId: message.tool_call_id,
        message: `message ${index}: tool result '${message.tool_call_id ?? "?"}' has no assistant tool call right before it; dropped`,
      });
      changed = true;
      index += 1;
      continue;
    }
    if (message.role !== "assistant" || !message.tool_calls?.length) {
      out.push(message);
      index += 1;
      continue;
    }
    // Collect the block of tool results that directly follows this call message.
    const callIndex = index;
    const answered = new Array<boolean>(message.tool_calls.length).fill(false);
    const results: Message[] = [];
    index += 1;
    while (index < history.length && history[index].role === "tool") {
      const result = history[index];
      const slot = message.tool_calls.findIndex((call, position) => !answered[position] && call.id === result.tool_call_id);
      if (slot >= 0) {
        answered[slot] = true;
        results.push(result);
      } else {
        const duplicate = message.tool_calls.some((call) => call.id === result.tool_call_id);
        repairs.push({
          kind: duplicate ? "duplicate-tool-result" : "orphan-tool-result",
          index,
          toolCallId: result.tool_call_id,
          message: duplicate
            ? `message ${index}: tool call '${result.tool_call_id}' of message ${callIndex} is already answered; dropped the extra result`
            : `message ${index}: tool result '${result.tool_call_id ?? "?"}' answers no call of message ${callIndex}; dropped`,
        });
        changed = true;
      }
      index += 1;
    }
    // Parallel results arrive one by one: calls of the last message may be partly answered and still pending.
    const pending = options.allowPendingToolCalls === true && index === history.length;
    if (pending || answered.every(Boolean)) {
      out.push(message, ...results);
      continue;
    }
    changed = true;
    const kept: ToolCall[] = [];
    message.tool_calls.forEach((call, position) => {
      if (answered[position]) kept.push(call);
      else
        repairs.push({
          kind: "unanswered-tool-call",
          index: callIndex,
          toolCallId: call.id,
          message: `message ${callIndex}: tool call '${call.id}' (${call.function.name}) never got a result; removed`,
        });
    });
    if (kept.length === 0 && !message.content) {
      repairs.push({ kind: "empty-assistant-dropped", index: callIndex, message: `message ${callIndex}: nothing left of the assistant message; dropped` });
    } else {
      const repaired: Message = { ...message };
      if (kept.length > 0) repaired.tool_calls = kept;
      else delete repaired.tool_calls;
      out.push(repaired, ...results);
    }
  }
  return { history: changed ? out : (history as Message[]), repairs };
}

/** True when every tool result answers a call right before it and every call is answered (P1). */
export function hasIntactToolPairs(history: readonly Message[], options: SanitizeOptions = {}): boolean {
  return sanitizeHistory(history, options).repairs.length === 0;
}
