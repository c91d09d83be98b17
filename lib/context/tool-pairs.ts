import type { Message } from "./messages";

/** One answered tool call: the assistant message and the call's place in its `tool_calls`, and the result that answers it. */
export interface ToolPair {
  callAt: number;
  callOrdinal: number;
  resultAt: number;
}

/** An assistant message with tool calls and the block of messages that answers it. */
export interface ToolCallBlock {
  /** The assistant message's index. */
  at: number;
  /** Per call of its `tool_calls`: the index of the result that answers it, or -1. */
  resultAt: number[];
  /** System messages standing between the calls and results that answer them (E-S1.1), in order. */
  interleaved: number[];
  /** The index of the first message after the block; the history's length when the history ends in it. */
  end: number;
}

/** A tool result that answers no call: `callAt` is the block it stands in (null outside one); `duplicate` when that block's call with its id is already answered. */
export interface UnpairedToolResult {
  at: number;
  callAt: number | null;
  duplicate: boolean;
}

export interface ToolPairing {
  /** Every answered call, in the order of its result. */
  pairs: ToolPair[];
  /** Every assistant message with tool calls, in order. */
  blocks: ToolCallBlock[];
  unpaired: UnpairedToolResult[];
}

/**
 * E-P2: the one walk that pairs tool calls with their results. A result answers
 * the first unanswered call with its id in the assistant message that opens
 * its block, so reused ids (`call_0` turn after turn, or twice in one
 * message) pair by position. A block is the tool results right after the
 * call message, and system messages standing before results that answer its
 * unanswered calls (E-S1.1); anything else ends it.
 * @example pairToolCalls(history).pairs // [{ callAt: 1, callOrdinal: 0, resultAt: 2 }]
 */
export function pairToolCalls(history: readonly Message[]): ToolPairing {
  const pairs: ToolPair[] = [];
  const blocks: ToolCallBlock[] = [];
  const unpaired: UnpairedToolResult[] = [];
  let block: ToolCallBlock | undefined;
  let index = 0;
  while (index < history.length) {
    const message = history[index];
    if (message.role === "tool") {
      if (!block) unpaired.push({ at: index, callAt: null, duplicate: false });
      else {
        const calls = history[block.at].tool_calls!;
        const slot = calls.findIndex((call, position) => block!.resultAt[position] < 0 && call.id === message.tool_call_id);
        if (slot >= 0) {
          block.resultAt[slot] = index;
          pairs.push({ callAt: block.at, callOrdinal: slot, resultAt: index });
        } else unpaired.push({ at: index, callAt: block.at, duplicate: calls.some((call) => call.id === message.tool_call_id) });
      }
      index += 1;
      continue;
    }
    const skip = block && message.role === "system" ? interleavedBefore(history, index, block) : 0;
    if (skip > 0) {
      for (let at = index; at < index + skip; at += 1) block!.interleaved.push(at);
      index += skip;
      continue;
    }
    if (block) block.end = index;
    block = undefined;
    if (message.role === "assistant" && (message.tool_calls?.length ?? 0) > 0) {
      block = { at: index, resultAt: message.tool_calls!.map(() => -1), interleaved: [], end: history.length };
      blocks.push(block);
    }
    index += 1;
  }
  return { pairs, blocks, unpaired };
}

/** How many system messages from `start` stand before a result that answers an unanswered call of the block; 0 when the block ends there. */
function interleavedBefore(history: readonly Message[], start: number, block: ToolCallBlock): number {
  let at = start;
  while (at < history.length && history[at].role === "system") at += 1;
  const next = history[at];
  if (next?.role !== "tool") return 0;
  const calls = history[block.at].tool_calls!;
  return calls.some((call, position) => block.resultAt[position] < 0 && call.id === next.tool_call_id) ? at - start : 0;
}
