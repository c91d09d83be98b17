/** Whole Gemini `generateContent` requests and responses ↔ canonical conversations (F-G1 in SPEC.md). */
import type { ContentPart, Message } from "@/lib/context/messages";
import { buildMessage } from "../canonical";
import { ConversionContext, isRecord, otherFields } from "../context";
import type { CanonicalConversation, ReadOptions, ReadResult, RequestReadResult, WriteResult } from "../types";
import { field, readGeminiPart } from "./parts";
import { readContent, readGeminiContents } from "./read";
import { readGeminiTools, writeGeminiTools } from "./tools";
import { writeGeminiContents } from "./write";

/** `{contents, systemInstruction?, tools?, ...}`; every other field comes back as `rest`. */
export function readGeminiRequest(body: unknown, options: ReadOptions = {}): RequestReadResult {
  const context = new ConversionContext("gemini", options.path ?? []);
  if (!isRecord(body)) {
    context.fail([], "a Gemini request must be an object {contents, systemInstruction?, tools?}");
    context.finish();
  }
  const request = body as Record<string, unknown>;
  const messages: Message[] = [];
  const systemKey = request.systemInstruction !== undefined ? "systemInstruction" : "system_instruction";
  const system = readSystemInstruction(field(request, "systemInstruction"), context.child([systemKey]));
  if (system !== undefined) messages.push(system);
  readGeminiContents(request.contents, context.child(["contents"]), messages);
  const result: RequestReadResult = {
    messages,
    warnings: context.warnings,
    rest: otherFields(request, ["contents", "systemInstruction", "system_instruction", "tools"]) ?? {},
  };
  if (request.tools !== undefined && request.tools !== null) result.tools = readGeminiTools(request.tools, context, ["tools"]);
  context.finish();
  return result;
}

/** `contents` alone. */
export function readGeminiMessages(contents: unknown, options: ReadOptions = {}): ReadResult {
  const context = new ConversionContext("gemini", options.path ?? []);
  const messages = readGeminiContents(contents, context);
  context.finish();
  return { messages, warnings: context.warnings };
}

function readSystemInstruction(value: unknown, context: ConversionContext): Message | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return buildMessage("system", [{ type: "text", text: value }]);
  if (!isRecord(value) || !Array.isArray(value.parts)) {
    context.fail([], "systemInstruction must be a string or a content {parts: [...]}");
    return undefined;
  }
  const parts: ContentPart[] = [];
  value.parts.forEach((part: unknown, index) => {
    const read = isRecord(part) ? readGeminiPart(part, (name, message) => context.fail(["parts", index, name], message)) : undefined;
    if (read === undefined || read === null) context.fail(["parts", index], "a system instruction part must be a text part");
    else parts.push(read);
  });
  return buildMessage("system", parts);
}

/** A `generateContent` response: the first candidate's content, as one canonical assistant message. */
export function readGeminiResponse(response: unknown, options: ReadOptions = {}): ReadResult {
  const context = new ConversionContext("gemini", options.path ?? []);
  const candidate = isRecord(response) && Array.isArray(response.candidates) ? response.candidates[0] : undefined;
  const messages: Message[] = [];
  if (!isRecord(candidate) || !isRecord(candidate.content)) context.fail(["candidates"], "a Gemini response needs candidates[0].content");
  else readContent({ ...candidate.content, role: "model" }, ["candidates", 0, "content"], 0, context, messages);
  context.finish();
  return { messages, warnings: context.warnings };
}

/** `{contents, systemInstruction?, tools?}` for `generateContent`. */
export function writeGeminiRequest(conversation: CanonicalConversation): WriteResult<Record<string, unknown>> {
  const context = new ConversionContext("gemini", []);
  const { contents, systemInstruction } = writeGeminiContents(conversation.messages, context);
  const body: Record<string, unknown> = {};
  if (systemInstruction !== undefined) body.systemInstruction = systemInstruction;
  body.contents = contents;
  if (conversation.tools !== undefined && conversation.tools.length > 0) body.tools = writeGeminiTools(conversation.tools, context);
  return { value: body, warnings: context.warnings };
}
