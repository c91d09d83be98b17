import type { Message, ToolCall } from "./messages";
import { pairToolCalls, type ToolCallBlock, type UnpairedToolResult } from "./tool-pairs";

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
 * every call has its result (E-P1), as the one pairing walk pairs them (E-P2):
 * results match the first unanswered call with their id, positionally,
 * because agents reuse ids (`call_0`) across turns. A system message standing
 * between a call and its results (a developer note, a memory rebuild) is
 * moved after them, not taken for the end of the turn (E-S1.1). A valid
 * history comes back unchanged (same array) with no repairs.
 * @example const { history, repairs } = sanitizeHistory(imported)
 */
export function sanitizeHistory(history: readonly Message[], options: SanitizeOptions = {}): SanitizeResult {
  const { blocks, unpaired } = pairToolCalls(history);
  // Parallel results arrive one by one: calls of the last message may be partly answered and still pending.
  const pending = (block: ToolCallBlock) => options.allowPendingToolCalls === true && block.end === history.length;
  const intact = unpaired.length === 0 && blocks.every((block) => block.interleaved.length === 0 && (pending(block) || block.resultAt.every((at) => at >= 0)));
  if (intact) return { history: history as Message[], repairs: [] };
  const repairs: HistoryRepair[] = [];
  const out: Message[] = [];
  const sources: number[] = [];
  const keep = (kept: Message, source: number) => {
    out.push(kept);
    sources.push(source);
  };
  const blockAt = new Map(blocks.map((block) => [block.at, block]));
  const unpairedAt = new Map(unpaired.map((result) => [result.at, result]));
  let index = 0;
  while (index < history.length) {
    const block = blockAt.get(index);
    if (block) {
      repairBlock(history, block, unpairedAt, pending(block), repairs, keep);
      index = block.end;
      continue;
    }
    const message = history[index];
    if (message.role === "tool")
      repairs.push({
        kind: "orphan-tool-result",
        index,
        toolCallId: message.tool_call_id,
        message: `message ${index}: tool result '${message.tool_call_id ?? "?"}' has no assistant tool call right before it; dropped`,
      });
    else keep(message, index);
    index += 1;
  }
  return { history: out, repairs, sources };
}

/** Keeps a call message's answered calls, then their results, then the system messages that stood among them (E-S1.1). */
function repairBlock(
  history: readonly Message[],
  block: ToolCallBlock,
  unpairedAt: ReadonlyMap<number, UnpairedToolResult>,
  pending: boolean,
  repairs: HistoryRepair[],
  keep: (message: Message, source: number) => void,
): void {
  const callIndex = block.at;
  const message = history[callIndex];
  const results: number[] = [];
  for (let at = callIndex + 1; at < block.end; at += 1) {
    const extra = unpairedAt.get(at);
    const toolCallId = history[at].tool_call_id;
    if (history[at].role === "system")
      repairs.push({
        kind: "interleaved-message-moved",
        index: at,
        message: `message ${at}: a ${history[at].role} message stood between the tool calls of message ${callIndex} and their results; moved after the results`,
      });
    else if (!extra) results.push(at);
    else
      repairs.push({
        kind: extra.duplicate ? "duplicate-tool-result" : "orphan-tool-result",
        index: at,
        toolCallId,
        message: extra.duplicate
          ? `message ${at}: tool call '${toolCallId}' of message ${callIndex} is already answered; dropped the extra result`
          : `message ${at}: tool result '${toolCallId ?? "?"}' answers no call of message ${callIndex}; dropped`,
      });
  }
  const keepResults = () => {
    for (const at of [...results, ...block.interleaved]) keep(history[at], at);
  };
  if (pending || block.resultAt.every((at) => at >= 0)) {
    keep(message, callIndex);
    keepResults();
    return;
  }
  const kept: ToolCall[] = [];
  message.tool_calls!.forEach((call, position) => {
    if (block.resultAt[position] >= 0) kept.push(call);
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

/** True when every tool result answers a call right before it and every call is answered (E-P1). */
export function hasIntactToolPairs(history: readonly Message[], options: SanitizeOptions = {}): boolean {
  return sanitizeHistory(history, options).repairs.length === 0;
}
