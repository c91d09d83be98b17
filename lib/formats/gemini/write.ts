/** Canonical messages → Gemini `contents` and `systemInstruction` (F-G1–F-G4 in SPEC.md). */
import type { ContentPart, Message } from "@/lib/context/messages";
import { argumentsObject, extrasOf, foreignExtras, mediaLosses, partsToWrite } from "../canonical";
import { isRecord, type ConversionContext } from "../context";
import { mimeTypeOf, writeGeminiPart } from "./parts";
import { responseObject } from "./read";

type Part = Record<string, unknown>;
type Content = { role: "user" | "model"; parts: Part[] };

/** Writes the conversation; leading system messages become the system instruction. */
export function writeGeminiContents(messages: readonly Message[], context: ConversionContext): { contents: Content[]; systemInstruction?: { parts: Part[] } } {
  let start = 0;
  const system: Part[] = [];
  while (start < messages.length && messages[start].role === "system") {
    warnMessage(messages[start], start, context);
    system.push(...partsOf(messages[start], start, context));
    start += 1;
  }
  if (start > 1) context.warn("system-moved", `${start} leading system messages were joined into Gemini's one system instruction`, ["messages", 1], 1);
  const contents: Content[] = [];
  const callNames = new Map<string, string>();
  for (let index = start; index < messages.length; index += 1) writeMessage(messages[index], index, contents, callNames, context);
  return system.length > 0 ? { contents, systemInstruction: { parts: system } } : { contents };
}

function warnMessage(message: Message, index: number, context: ConversionContext): void {
  const path = ["messages", index];
  for (const provider of foreignExtras(message, "gemini"))
    context.warn("extras-dropped", `${provider} fields of this message have no place in Gemini`, path, index);
  if (message.cache_control !== undefined) context.warn("cache-control-dropped", "Gemini contents have no cache marks", [...path, "cache_control"], index);
  if (message.name !== undefined && message.role !== "tool") context.warn("part-dropped", "Gemini contents have no name", [...path, "name"], index);
}

function writeMessage(message: Message, index: number, contents: Content[], callNames: Map<string, string>, context: ConversionContext): void {
  const path = ["messages", index];
  warnMessage(message, index, context);
  if (message.role === "assistant") {
    const parts = partsOf(message, index, context);
    parts.push(...functionCalls(message, index, callNames, context));
    contents.push({ role: "model", parts });
    return;
  }
  if (message.role === "tool") {
    const response = functionResponse(message, callNames, index, context);
    const previous = contents.at(-1);
    if (previous?.role === "user" && previous.parts.every((part) => part.functionResponse !== undefined)) previous.parts.push(response);
    else contents.push({ role: "user", parts: [response] });
    return;
  }
  if (message.role === "system")
    context.warn("system-moved", "Gemini has a system instruction only before the conversation; this system message became a user turn", path, index);
  const parts = partsOf(message, index, context);
  // F-G3: a user turn right after function responses shares their content.
  const previous = contents.at(-1);
  if (message.role === "user" && previous?.role === "user" && previous.parts.length > 0 && previous.parts.at(-1)?.functionResponse !== undefined)
    previous.parts.push(...parts);
  else contents.push({ role: "user", parts });
}

function partsOf(message: Message, index: number, context: ConversionContext): Part[] {
  const written: Part[] = [];
  partsToWrite(message).forEach((part, partIndex) => {
    const path = ["messages", index, "parts", partIndex];
    const wire = writeGeminiPart(part);
    if (wire === undefined) {
      context.warn(
        "part-dropped",
        `Gemini has no place for this ${part.type === "provider" ? `${part.provider} ${String(part.data.type)} block` : `${part.type} part`}`,
        path,
        index,
      );
      return;
    }
    warnApproximation(part, path, index, context);
    written.push(wire);
  });
  return written;
}

function warnApproximation(part: ContentPart, path: (string | number)[], index: number, context: ConversionContext): void {
  const warn = (message: string) => context.warn("part-approximated", message, path, index);
  if (part.type === "refusal") warn("Gemini has no refusal part; the refusal became text");
  if (part.type === "reasoning" && (part.redacted !== undefined || part.encrypted !== undefined || part.id !== undefined)) {
    context.warn("part-dropped", "Gemini thoughts hold no redacted or encrypted content and no item id; they were left out", path, index);
  }
  if (part.type === "reasoning" && part.summary !== undefined) warn("the reasoning summary became thought text");
  if ((part.type === "image" || part.type === "audio" || part.type === "document") && part.source.type !== "base64") {
    if (part.source.type === "text") warn("a text document became a text part");
    else if (part.source.type === "file") warn(`the file id '${part.source.fileId}' was written as a Gemini file URI`);
    else if (mimeTypeOf(part).guessed) warn(`Gemini needs a MIME type for a file; ${mimeTypeOf(part).mimeType} was assumed`);
  }
  if ("cacheControl" in part && part.cacheControl !== undefined) context.warn("cache-control-dropped", "Gemini parts have no cache marks", path, index);
  const losses = mediaLosses(part, { urlMediaType: true });
  if (losses.length > 0) context.warn("part-dropped", `Gemini has no place for ${losses.join(", ")}`, path, index);
  for (const provider of foreignExtras(part, "gemini")) context.warn("extras-dropped", `${provider} fields of this part have no place in Gemini`, path, index);
}

function functionCalls(message: Message, index: number, callNames: Map<string, string>, context: ConversionContext): Part[] {
  const extras = extrasOf(message, "gemini");
  const signatures = isRecord(extras.signatures) ? extras.signatures : {};
  return (message.tool_calls ?? []).map((call, callIndex) => {
    callNames.set(call.id, call.function.name);
    let args = argumentsObject(call.function.arguments);
    if (args === undefined) {
      context.warn(
        "part-approximated",
        `tool call '${call.id}' has arguments that are not a JSON object; Gemini's args hold them as {"input": ...}`,
        ["messages", index, "tool_calls", callIndex],
        index,
      );
      args = { input: call.function.arguments };
    }
    const functionCall: Record<string, unknown> = extras.generatedIds === true ? {} : { id: call.id };
    const part: Part = { functionCall: { ...functionCall, name: call.function.name, args } };
    if (typeof signatures[call.id] === "string") part.thoughtSignature = signatures[call.id];
    return part;
  });
}

function functionResponse(message: Message, callNames: Map<string, string>, index: number, context: ConversionContext): Part {
  const extras = extrasOf(message, "gemini");
  const name = message.name ?? callNames.get(message.tool_call_id ?? "");
  if (name === undefined)
    context.warn(
      "part-approximated",
      `tool result '${message.tool_call_id}' answers no call here and has no name; Gemini needs one, so it is named "unknown"`,
      ["messages", index],
      index,
    );
  const response: Record<string, unknown> = extras.generatedIds === true ? {} : { id: message.tool_call_id };
  response.name = name ?? "unknown";
  response.response = responseObject(message.content ?? "");
  const media = partsToWrite(message).filter((part) => part.type !== "text");
  if (media.length > 0) response.parts = partsOf({ ...message, content: "", parts: media }, index, context);
  if (isRecord(extras.fields)) Object.assign(response, extras.fields);
  return { functionResponse: response };
}
