// Test builders: short, readable conversations in OpenAI's wire shape.
import { Context } from "../context";
import { makeConfig, type ContextConfig } from "../config";
import { CONVERSATION_SUMMARY_PREFIX, TOOL_CHAIN_SUMMARY_PREFIX, type Message, type ToolCall } from "../messages";
import { STATE_KEYS } from "../state";

export function system(content: string): Message {
  return { role: "system", content };
}

export function user(content: string): Message {
  return { role: "user", content };
}

/** An assistant message without tool calls: a round's final answer. */
export function answer(content: string): Message {
  return { role: "assistant", content };
}

/** A chain summary as `DialogueCompressor` leaves it: prefixed text and the engine's mark (E-M2). */
export function chainSummary(text: string): Message {
  return { role: "assistant", content: `${TOOL_CHAIN_SUMMARY_PREFIX} ${text}`, engine: { kind: "chain-summary" } };
}

/** A conversation summary as `SummarizeProcessor` leaves it (E-M2). */
export function conversationSummary(text: string): Message {
  return { role: "system", content: `${CONVERSATION_SUMMARY_PREFIX}\n${text}`, engine: { kind: "conversation-summary" } };
}

export function toolCall(id: string, name = "lookup", args = "{}"): ToolCall {
  return { id, type: "function", function: { name, arguments: args } };
}

/** An assistant message asking for the given tool calls. */
export function calls(...toolCalls: ToolCall[]): Message {
  return { role: "assistant", content: null, tool_calls: toolCalls };
}

export function result(id: string, content: string, name?: string): Message {
  return name === undefined ? { role: "tool", tool_call_id: id, content } : { role: "tool", tool_call_id: id, content, name };
}

/** A whole round: a question, one tool call with its result, and the answer. */
export function toolRound(question: string, id: string, toolResult: string, reply: string, name = "lookup"): Message[] {
  return [user(question), calls(toolCall(id, name, JSON.stringify({ q: question }))), result(id, toolResult, name), answer(reply)];
}

/** A context whose state holds `history`. */
export function contextWith(history: readonly Message[], config: ContextConfig = makeConfig(), taskId = "test"): Context {
  const ctx = new Context(taskId, { config });
  ctx.state.set(STATE_KEYS.history, history);
  return ctx;
}

export function historyOf(ctx: Context): readonly Message[] {
  return ctx.state.get(STATE_KEYS.history) ?? [];
}

/** The `off_…` handles of every offload marker in a history. */
export function handlesIn(history: readonly Message[]): string[] {
  return history.flatMap((message) => [...(message.content ?? "").matchAll(/\[\[OFFLOADED: handle=(off_[0-9a-f]{12})\]\]/g)].map((match) => match[1]));
}

/** `count` characters of varied, repeatable text (long contents for offloading). */
export function longText(count: number, seed = "word"): string {
  const words = `${seed} alpha beta gamma delta epsilon zeta eta theta `;
  return words.repeat(Math.ceil(count / words.length)).slice(0, count);
}
