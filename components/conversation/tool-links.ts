import { pairToolCalls, type Message } from "@/lib/context/light";

/** How tool calls and their results pair up in a list of messages. */
export interface ToolLinks {
  /** Per message: the link key of each of its tool calls (`message:call`), empty for none. */
  calls: string[][];
  /** Per message: the link key of the call a tool result answers, or undefined. */
  result: (string | undefined)[];
  /** Link key → [index of the calling message, index of the result message or -1]. */
  ends: Map<string, [number, number]>;
}

/** The key of call `call` of message `message`. */
export function callKey(message: number, call: number): string {
  return `${message}:${call}`;
}

/** Pairs every tool result with the call it answers, by the engine's one pairing walk (E-P2): reused ids pair by position. */
export function linkToolCalls(messages: readonly Message[]): ToolLinks {
  const calls: string[][] = messages.map(() => []);
  const result: (string | undefined)[] = messages.map(() => undefined);
  const ends = new Map<string, [number, number]>();
  const { blocks, pairs } = pairToolCalls(messages);
  for (const block of blocks)
    calls[block.at] = block.resultAt.map((_, call) => {
      const key = callKey(block.at, call);
      ends.set(key, [block.at, -1]);
      return key;
    });
  for (const pair of pairs) {
    const key = callKey(pair.callAt, pair.callOrdinal);
    result[pair.resultAt] = key;
    ends.set(key, [pair.callAt, pair.resultAt]);
  }
  return { calls, result, ends };
}
