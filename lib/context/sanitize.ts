import type { Message, ToolCall } from "./messages";

/** What `sanitizeHistory` changed, with the index in the history it was given. */
export interface HistoryRepair {
  kind: "orphan-tool-result" | "duplicate-tool-result" | "unanswered-tool-call" | "empty-assistant-dropped" | "interleaved-message-moved";
  index: number;
  toolCallId?: string;
  message: string;
}

export interface SanitizeResult {
  history: Message[];
  repairs: HistoryRepair[];
  /** When anything was repaired: for each message of `history`, the index it had in the history given (messages can be dropped and moved). */
  sources?: number[];
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
 * turns. A system message standing between a call and its results (a
 * developer note, a memory rebuild) is moved after them, not taken for
 * the end of the turn (S1.1). A valid history comes back unchanged (same
 * array) with no repairs.
 * @example const { history, repairs } = sanitizeHistory(imported)
 */
export function sanitizeHistory(history: readonly Message[], options: SanitizeOptions = {}): SanitizeResult {
  const repairs: HistoryRepair[] = [];
  const out: Message[] = [];
  const sources: number[] = [];
  const keep = (kept: Message, source: number) => {
    out.push(kept);
    sources.push(source);
  };
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
      keep(message, index);
      index += 1;
      continue;
    }
    // Collect the block of tool results that directly follows this call message.
    const callIndex = index;
    const answered = new Array<boolean>(message.tool_calls.length).fill(false);
    const results: number[] = [];
    const moved: number[] = [];
    index += 1;
    while (index < history.length) {
      if (history[index].role !== "tool") {
        const skip = interleavedBefore(history, index, message.tool_calls, answered);
        if (skip === 0) break;
        for (let at = index; at < index + skip; at += 1) {
          moved.push(at);
          repairs.push({
            kind: "interleaved-message-moved",
            index: at,
            message: `message ${at}: a ${history[at].role} message stood between the tool calls of message ${callIndex} and their results; moved after the results`,
          });
        }
        changed = true;
        index += skip;
        continue;
      }
      const result = history[index];
      const slot = message.tool_calls.findIndex((call, position) => !answered[position] && call.id === result.tool_call_id);
      if (slot >= 0) {
        answered[slot] = true;
        results.push(index);
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
    const keepResults = () => {
      for (const at of [...results, ...moved]) keep(history[at], at);
    };
    if (pending || answered.every(Boolean)) {
      keep(message, callIndex);
      keepResults();
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
      keep(repaired, callIndex);
    }
    keepResults();
  }
  return changed ? { history: out, repairs, sources } : { history: history as Message[], repairs };
}

/**
 * How many system messages from `start` stand before tool results
 * that answer still unanswered calls (S1.1); 0 when what follows is not such
 * a result (the turn really ended there).
 */
function interleavedBefore(history: readonly Message[], start: number, calls: readonly ToolCall[], answered: readonly boolean[]): number {
  let at = start;
  while (at < history.length && history[at].role === "system") at += 1;
  const next = history[at];
  if (at === start || next?.role !== "tool") return 0;
  return calls.some((call, position) => !answered[position] && call.id === next.tool_call_id) ? at - start : 0;
}

/** True when every tool result answers a call right before it and every call is answered (P1). */
export function hasIntactToolPairs(history: readonly Message[], options: SanitizeOptions = {}): boolean {
  return sanitizeHistory(history, options).repairs.length === 0;
}
