/** Whole OpenAI Responses requests and response objects ↔ canonical conversations (F-R1, F-R5 in SPEC.md). */
import type { Message } from "@/lib/context/messages";
import { buildMessage, extrasOf, withExtras } from "../canonical";
import { ConversionContext, isRecord, otherFields } from "../context";
import type { CanonicalConversation, ReadOptions, ReadResult, RequestReadResult, WriteResult } from "../types";
import { readResponsesItems } from "./read";
import { readResponsesTools, writeResponsesTools } from "./tools";
import { writeResponsesItems } from "./write";

/** A Responses request `{instructions?, input, tools?, ...}`; `instructions` becomes a first system message. */
export function readResponsesRequest(body: unknown, options: ReadOptions = {}): RequestReadResult {
  const context = new ConversionContext("openai-responses", options.path ?? []);
  if (!isRecord(body)) {
    context.fail([], "a Responses request must be an object {input, instructions?, tools?}");
    context.finish();
  }
  const request = body as Record<string, unknown>;
  const messages: Message[] = [];
  if (typeof request.instructions === "string") {
    messages.push(buildMessage("system", [{ type: "text", text: request.instructions }], { extras: withExtras(undefined, "openai", { instructions: true }) }));
  } else if (request.instructions !== undefined && request.instructions !== null) {
    context.fail(["instructions"], "instructions must be a string");
  }
  if (request.input !== undefined) readResponsesItems(request.input, context.child(["input"]), messages);
  const result: RequestReadResult = { messages, warnings: context.warnings, rest: otherFields(request, ["instructions", "input", "tools"]) ?? {} };
  if (request.tools !== undefined && request.tools !== null) result.tools = readResponsesTools(request.tools, context, ["tools"]);
  context.finish();
  return result;
}

/** An `input` value alone: a string or an array of items. */
export function readResponsesInput(input: unknown, options: ReadOptions = {}): ReadResult {
  const context = new ConversionContext("openai-responses", options.path ?? []);
  const messages = readResponsesItems(input, context);
  context.finish();
  return { messages, warnings: context.warnings };
}

/** A response object's `output` items as canonical assistant messages. */
export function readResponsesOutput(response: unknown, options: ReadOptions = {}): ReadResult {
  const context = new ConversionContext("openai-responses", options.path ?? []);
  const output = isRecord(response) ? response.output : undefined;
  if (!Array.isArray(output)) context.fail(["output"], "a response needs an output array");
  const messages = Array.isArray(output) ? readResponsesItems(output, context.child(["output"])) : [];
  context.finish();
  return { messages, warnings: context.warnings };
}

/** `{instructions?, input, tools?}`: a first system message read from `instructions` goes back there. */
export function writeResponsesRequest(conversation: CanonicalConversation): WriteResult<Record<string, unknown>> {
  const context = new ConversionContext("openai-responses", []);
  const { messages } = conversation;
  const body: Record<string, unknown> = {};
  const first = messages[0];
  const fromInstructions = first?.role === "system" && extrasOf(first, "openai").instructions === true;
  if (fromInstructions) body.instructions = first.content ?? "";
  body.input = writeResponsesItems(messages, context, fromInstructions ? 1 : 0);
  if (conversation.tools !== undefined && conversation.tools.length > 0) body.tools = writeResponsesTools(conversation.tools, context);
  return { value: body, warnings: context.warnings };
}
