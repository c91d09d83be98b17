/** Canonical messages → OpenAI Chat Completions messages (F-C1–F-C6 in SPEC.md). */
import type { ContentPart, Message, ReasoningPart } from "@/lib/context/messages";
import { extrasOf, foreignExtras, mediaLosses, partsToWrite, unusedExtras } from "../canonical";
import { ConversionContext, isRecord } from "../context";
import type { CanonicalConversation, WriteResult } from "../types";
import { writeChatPart } from "./content";
import { writeReasoningDetails } from "./reasoning";
import { writeChatTools } from "./tools";

/** The OpenAI extras a chat message puts back; the rest were written by the Responses reader. */
const CHAT_EXTRAS = ["role", "fields", "reasoningField", "audio", "customCalls", "functionCall"];

/** Canonical messages → chat messages, with a warning for whatever chat cannot hold. */
export function writeChatMessages(messages: readonly Message[]): WriteResult<Record<string, unknown>[]> {
  const context = new ConversionContext("openai-chat", []);
  const value = messages.map((message, index) => writeMessage(message, index, context));
  return { value, warnings: context.warnings };
}

/** A chat request body's `messages` and `tools` (and `functions` for legacy tools). */
export function writeChatRequest(conversation: CanonicalConversation): WriteResult<Record<string, unknown>> {
  const context = new ConversionContext("openai-chat", []);
  const body: Record<string, unknown> = { messages: conversation.messages.map((message, index) => writeMessage(message, index, context)) };
  if (conversation.tools !== undefined && conversation.tools.length > 0) {
    const { tools, functions } = writeChatTools(conversation.tools, context);
    if (tools.length > 0) body.tools = tools;
    if (functions.length > 0) body.functions = functions;
  }
  return { value: body, warnings: context.warnings };
}

function writeMessage(message: Message, index: number, context: ConversionContext): Record<string, unknown> {
  const extras = extrasOf(message, "openai");
  const path = ["messages", index];
  for (const provider of foreignExtras(message, "openai")) {
    context.warn("extras-dropped", `${provider} fields of this message have no place in OpenAI Chat`, path, index);
  }
  const unused = unusedExtras(message, "openai", CHAT_EXTRAS);
  if (unused.length > 0) context.warn("extras-dropped", `OpenAI Chat has no place for these Responses fields: ${unused.join(", ")}`, path, index);
  const wire: Record<string, unknown> = { role: wireRole(message, extras.role) };
  const parts = partsToWrite(message);
  const reasoning = parts.filter((part): part is ReasoningPart => part.type === "reasoning");
  const audio: ContentPart[] = message.role === "assistant" ? parts.filter((part) => part.type === "audio") : [];
  let content = parts.filter((part) => part.type !== "reasoning" && !audio.includes(part));
  const refusal = content.at(-1);
  if (message.role === "assistant" && refusal?.type === "refusal" && content.filter((part) => part.type === "refusal").length === 1) {
    content = content.slice(0, -1);
    wire.refusal = refusal.text;
  }
  wire.content = writeContent(content, message, context, index);
  if (message.cache_control !== undefined) attachCache(wire, message);
  if (reasoning.length > 0) writeReasoning(wire, reasoning, extras.reasoningField);
  if (audio.length > 0) writeAudio(wire, audio, extras.audio, context, index);
  writeToolCalls(wire, message, extras);
  if (message.role === "tool" && extras.role !== "function") wire.tool_call_id = message.tool_call_id;
  if (message.name !== undefined) wire.name = message.name;
  if (isRecord(extras.fields)) Object.assign(wire, extras.fields);
  return wire;
}

function wireRole(message: Message, role: unknown): string {
  if (message.role === "system" && role === "developer") return "developer";
  if (message.role === "tool" && role === "function") return "function";
  return message.role;
}

function writeContent(parts: readonly ContentPart[], message: Message, context: ConversionContext, index: number): unknown {
  const plain = parts.length === 1 && parts[0].type === "text" && parts[0].cacheControl === undefined && parts[0].extras === undefined;
  if (plain && message.cache_control === undefined) return (parts[0] as { text: string }).text;
  if (parts.length === 0) return message.role === "assistant" ? null : "";
  const written: Record<string, unknown>[] = [];
  parts.forEach((part, partIndex) => {
    const wire = writeChatPart(part);
    const path = ["messages", index, "parts", partIndex];
    if (wire === undefined) context.warn("part-dropped", `OpenAI Chat has no place for this ${describe(part)}`, path, index);
    else {
      for (const provider of foreignExtras(part, "openai"))
        context.warn("extras-dropped", `${provider} fields of this part have no place in OpenAI Chat`, path, index);
      const losses = mediaLosses(part, { detail: true, title: true });
      if (losses.length > 0) context.warn("part-dropped", `OpenAI Chat has no place for ${losses.join(", ")}`, path, index);
      if (message.role === "assistant" && part.type !== "text" && part.type !== "refusal") {
        context.warn(
          "part-approximated",
          `OpenAI Chat accepts only text and refusals from the assistant; this ${part.type} part is written anyway`,
          path,
          index,
        );
      }
      written.push(wire);
    }
  });
  return written;
}

function describe(part: ContentPart): string {
  if (part.type === "provider") return `${part.provider} ${String(part.data.type)} block`;
  if ("source" in part) return `${part.type} (a ${part.source.type} source)`;
  return `${part.type} part`;
}

/** F2: the message's cache mark goes on its last content part, or on the message when tool calls end it or it has no content. */
function attachCache(wire: Record<string, unknown>, message: Message): void {
  const hasCalls = (message.tool_calls ?? []).length > 0;
  if (typeof wire.content === "string" && !hasCalls) wire.content = [{ type: "text", text: wire.content }];
  const last = Array.isArray(wire.content) && !hasCalls ? (wire.content.at(-1) as Record<string, unknown> | undefined) : undefined;
  if (last !== undefined) last.cache_control = message.cache_control;
  else wire.cache_control = message.cache_control;
}

function writeReasoning(wire: Record<string, unknown>, parts: readonly ReasoningPart[], field: unknown): void {
  const simple =
    parts.length === 1 &&
    parts[0].summary === undefined &&
    parts[0].signature === undefined &&
    parts[0].redacted === undefined &&
    parts[0].encrypted === undefined &&
    parts[0].id === undefined;
  if ((field === "reasoning_content" || field === "reasoning") && simple) wire[field] = parts[0].text;
  else wire.reasoning_details = writeReasoningDetails(parts);
}

function writeAudio(wire: Record<string, unknown>, parts: readonly ContentPart[], extras: unknown, context: ConversionContext, index: number): void {
  const [audio, ...more] = parts;
  const fields = isRecord(extras) ? extras : {};
  if (audio.type === "audio" && audio.source.type === "file") wire.audio = { id: audio.source.fileId, ...fields };
  else if (audio.type === "audio" && typeof fields.id === "string") {
    wire.audio = {
      ...fields,
      ...(audio.source.type === "base64" ? { data: audio.source.data } : {}),
      ...(audio.transcript === undefined ? {} : { transcript: audio.transcript }),
    };
  } else context.warn("part-dropped", "OpenAI Chat takes assistant audio only by the id of an earlier answer's audio", ["messages", index], index);
  if (more.length > 0) context.warn("part-dropped", "OpenAI Chat holds one audio answer per assistant message", ["messages", index], index);
}

function writeToolCalls(wire: Record<string, unknown>, message: Message, extras: Readonly<Record<string, unknown>>): void {
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return;
  if (extras.functionCall === true && calls.length === 1) {
    wire.function_call = { name: calls[0].function.name, arguments: calls[0].function.arguments };
    return;
  }
  const custom = Array.isArray(extras.customCalls) ? extras.customCalls : [];
  wire.tool_calls = calls.map((call) =>
    custom.includes(call.id)
      ? { id: call.id, type: "custom", custom: { name: call.function.name, input: call.function.arguments } }
      : { id: call.id, type: "function", function: { name: call.function.name, arguments: call.function.arguments } },
  );
}
