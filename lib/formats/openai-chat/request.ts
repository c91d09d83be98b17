/** Whole OpenAI Chat request bodies and responses ↔ canonical conversations. */
import { ConversionContext, isRecord, otherFields } from "../context";
import type { ReadOptions, ReadResult, RequestReadResult } from "../types";
import { readChatMessage, readChatMessageList } from "./read";
import { readChatFunctions, readChatTools } from "./tools";

/** A chat request body `{messages, tools?, functions?, ...}`; every other field comes back as `rest`. */
export function readChatRequest(body: unknown, options: ReadOptions = {}): RequestReadResult {
  const context = new ConversionContext("openai-chat", options.path ?? []);
  if (!isRecord(body)) {
    context.fail([], "a chat request must be an object {messages, tools?}");
    context.finish();
  }
  const request = body as Record<string, unknown>;
  const messages = readChatMessageList(request.messages, context.child(["messages"]));
  const tools = [];
  if (request.tools !== undefined && request.tools !== null) tools.push(...readChatTools(request.tools, context, ["tools"]));
  if (request.functions !== undefined && request.functions !== null) {
    context.warn("legacy-function-call", "legacy functions became tools", ["functions"]);
    tools.push(...readChatFunctions(request.functions, context, ["functions"]));
  }
  context.finish();
  const result: RequestReadResult = { messages, warnings: context.warnings, rest: otherFields(request, ["messages", "tools", "functions"]) ?? {} };
  if (request.tools != null || request.functions != null) result.tools = tools;
  return result;
}

/** A chat completion response: the first choice's message, as one canonical assistant message. */
export function readChatResponse(response: unknown, options: ReadOptions = {}): ReadResult {
  const context = new ConversionContext("openai-chat", options.path ?? []);
  const choice = isRecord(response) && Array.isArray(response.choices) ? response.choices[0] : undefined;
  if (!isRecord(choice) || !isRecord(choice.message)) {
    context.fail(["choices"], "a chat completion needs choices[0].message");
    context.finish();
  }
  const message = readChatMessage({ role: "assistant", ...(choice as { message: Record<string, unknown> }).message }, context.child(["choices", 0, "message"]));
  context.finish();
  return { messages: message === undefined ? [] : [message], warnings: context.warnings };
}
