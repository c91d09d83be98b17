import type { Message } from "@/lib/context";

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

/**
 * Pairs every tool result with the call it answers, positionally like
 * `sanitizeHistory`: a result answers the first unanswered call with its id in
 * the assistant message right before its block, because agents reuse ids
 * (`call_0`) across turns.
 */
export function linkToolCalls(messages: readonly Message[]): ToolLinks {
  const calls: string[][] = messages.map(() => []);
  const result: (string | undefined)[] = messages.map(() => undefined);
  const ends = new Map<string, [number, number]>();
  let open: { message: number; ids: string[]; answered: boolean[] } | undefined;
  messages.forEach((message, index) => {
    if (message.role === "tool") {
      if (!open) return;
      const slot = open.ids.findIndex((id, position) => !open!.answered[position] && id === message.tool_call_id);
      if (slot < 0) return;
      open.answered[slot] = true;
      const key = callKey(open.message, slot);
      result[index] = key;
      ends.set(key, [open.message, index]);
      return;
    }
    open = undefined;
    if (message.role !== "assistant" || !message.tool_calls?.length) return;
    open = { message: index, ids: message.tool_calls.map((call) => call.id), answered: message.tool_calls.map(() => false) };
    calls[index] = message.tool_calls.map((_, call) => {
      const key = callKey(index, call);
      ends.set(key, [index, -1]);
      return key;
    });
  });
  return { calls, result, ends };
}
