/** Whole Anthropic request bodies and responses ↔ canonical conversations (F-A1 in SPEC.md). */
import type { ContentPart, Message } from "@/lib/context/messages";
import { buildMessage } from "../canonical";
import { ConversionContext, isRecord, otherFields } from "../context";
import type { ReadOptions, ReadResult, RequestReadResult } from "../types";
import { readBlock } from "./blocks";
import { readAnthropicMessageList, readMessage } from "./read";
import { readAnthropicTools } from "./tools";

/** A Messages request `{system?, messages, tools?, ...}`; every other field comes back as `rest`. */
export function readAnthropicRequest(body: unknown, options: ReadOptions = {}): RequestReadResult {
  const context = new ConversionContext("anthropic", options.path ?? []);
  if (!isRecord(body)) {
    context.fail([], "an Anthropic request must be an object {system?, messages, tools?}");
    context.finish();
  }
  const request = body as Record<string, unknown>;
  const messages: Message[] = [];
  const system = readSystem(request.system, context.child(["system"]));
  if (system !== undefined) messages.push(system);
  readAnthropicMessageList(request.messages, context.child(["messages"]), messages);
  const result: RequestReadResult = { messages, warnings: context.warnings, rest: otherFields(request, ["system", "messages", "tools"]) ?? {} };
  if (request.tools !== undefined && request.tools !== null) result.tools = readAnthropicTools(request.tools, context, ["tools"]);
  context.finish();
  return result;
}

/** Reads `messages` alone (no system prompt, no tools). */
export function readAnthropicMessages(raw: unknown, options: ReadOptions = {}): ReadResult {
  const context = new ConversionContext("anthropic", options.path ?? []);
  const messages = readAnthropicMessageList(raw, context);
  context.finish();
  return { messages, warnings: context.warnings };
}

/** The top-level system prompt (a string or text blocks) as the first message. */
export function readSystem(system: unknown, context: ConversionContext): Message | undefined {
  if (system === undefined || system === null) return undefined;
  if (typeof system === "string") return buildMessage("system", [{ type: "text", text: system }]);
  if (!Array.isArray(system)) {
    context.fail([], "system must be a string or an array of text blocks");
    return undefined;
  }
  const parts: ContentPart[] = [];
  system.forEach((block: unknown, index) => {
    if (!isRecord(block) || block.type !== "text") return context.fail([index], 'a system block must be a text block {type: "text", text}');
    const part = readBlock(block, context, [index], 0);
    if (part !== undefined) parts.push(part);
  });
  return buildMessage("system", parts);
}

/** A Messages response `{role: "assistant", content: [...]}` as one canonical assistant message. */
export function readAnthropicResponse(response: unknown, options: ReadOptions = {}): ReadResult {
  const context = new ConversionContext("anthropic", options.path ?? []);
  const messages: Message[] = [];
  readMessage(isRecord(response) ? { role: "assistant", content: response.content } : response, [], 0, context, messages);
  context.finish();
  return { messages, warnings: context.warnings };
}
