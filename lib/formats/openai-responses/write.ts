/** Canonical messages → OpenAI Responses input items (F-R1–F-R5 in SPEC.md). */
import type { ContentPart, Message, ReasoningPart } from "@/lib/context/messages";
import { argumentsObject, extrasOf, foreignExtras, impliedName, mediaLosses, partsToWrite, unusedExtras } from "../canonical";
import { isRecord, type ConversionContext } from "../context";
import type { JsonPath } from "../types";
import { CALL_KINDS } from "./calls";
import { writeResponsesPart } from "./content";

type Item = Record<string, unknown>;

/** The OpenAI extras each role's items put back; the rest were written by the Chat reader. */
const RESPONSES_EXTRAS: Record<Message["role"], readonly string[]> = {
  system: ["role", "fields", "instructions"],
  user: ["fields"],
  assistant: ["item", "callItems", "customCalls"],
  tool: ["type", "output", "noCallId", "fields"],
};

/** Writes each message as its items, in order. */
export function writeResponsesItems(messages: readonly Message[], context: ConversionContext, first = 0): Item[] {
  const items: Item[] = [];
  const callNames = new Map<string, string>();
  for (let index = first; index < messages.length; index += 1) {
    const message = messages[index];
    for (const call of message.tool_calls ?? []) callNames.set(call.id, call.function.name);
    const path = ["messages", index];
    for (const provider of foreignExtras(message, "openai"))
      context.warn("extras-dropped", `${provider} fields of this message have no place in OpenAI Responses`, path, index);
    const unused = unusedExtras(message, "openai", RESPONSES_EXTRAS[message.role]);
    if (unused.length > 0) context.warn("extras-dropped", `OpenAI Responses has no place for these Chat fields: ${unused.join(", ")}`, path, index);
    if (message.cache_control !== undefined) context.warn("cache-control-dropped", "OpenAI Responses has no cache marks", [...path, "cache_control"], index);
    if (message.name !== undefined && !impliedName(message, callNames))
      context.warn("part-dropped", "OpenAI Responses messages have no name", [...path, "name"], index);
    if (message.role === "assistant") items.push(...assistantItems(message, index, context));
    else if (message.role === "tool") items.push(outputItem(message, index, context));
    else items.push(inputMessage(message, index, context));
  }
  return items;
}

function writeParts(parts: readonly ContentPart[], output: boolean, index: number, context: ConversionContext): Item[] {
  const written: Item[] = [];
  parts.forEach((part) => {
    const wire = writeResponsesPart(part, output);
    const path = ["messages", index, "parts"];
    if (wire === undefined) {
      const what = part.type === "provider" ? `${part.provider} ${String(part.data.type)} block` : `${part.type} part`;
      context.warn("part-dropped", `OpenAI Responses has no place for a ${what} here`, path, index);
    } else {
      const losses = mediaLosses(part, { detail: true, title: true });
      if (losses.length > 0) context.warn("part-dropped", `OpenAI Responses has no place for ${losses.join(", ")}`, path, index);
      for (const provider of foreignExtras(part, "openai"))
        context.warn("extras-dropped", `${provider} fields of this part have no place in OpenAI Responses`, path, index);
      if ("cacheControl" in part && part.cacheControl !== undefined) context.warn("cache-control-dropped", "OpenAI Responses has no cache marks", path, index);
      written.push(wire);
    }
  });
  return written;
}

function inputMessage(message: Message, index: number, context: ConversionContext): Item {
  const extras = extrasOf(message, "openai");
  const role = message.role === "system" && extras.role === "developer" ? "developer" : message.role;
  const parts = partsToWrite(message);
  const content = message.parts === undefined ? (message.content ?? "") : writeParts(parts, false, index, context);
  const item: Item = isRecord(extras.fields) ? { type: "message", role, content, ...extras.fields } : { role, content };
  return item;
}

function assistantItems(message: Message, index: number, context: ConversionContext): Item[] {
  const extras = extrasOf(message, "openai");
  const items: Item[] = [];
  let messageItem: Item | undefined;
  for (const part of partsToWrite(message)) {
    if (part.type === "reasoning") {
      if (part.signature !== undefined || part.redacted !== undefined) {
        context.warn(
          "part-dropped",
          "a Responses reasoning item holds no signature or redacted thinking; they were left out",
          ["messages", index, "parts"],
          index,
        );
      }
      items.push(reasoningItem(part));
    } else if (part.type === "provider" && part.provider === "openai") items.push({ ...part.data });
    else {
      if (messageItem === undefined) {
        messageItem = { type: "message", role: "assistant", content: [], ...(isRecord(extras.item) ? extras.item : {}) };
        items.push(messageItem);
      }
      (messageItem.content as Item[]).push(...writeParts([part], true, index, context));
    }
  }
  items.push(...callItems(message, index, context));
  return items;
}

function reasoningItem(part: ReasoningPart): Item {
  const item: Item = { type: "reasoning" };
  if (part.id !== undefined) item.id = part.id;
  item.summary = (part.summary ?? []).map((text) => ({ type: "summary_text", text }));
  if (part.text !== "") item.content = [{ type: "reasoning_text", text: part.text }];
  if (part.encrypted !== undefined) item.encrypted_content = part.encrypted;
  return { ...item, ...part.extras?.openai };
}

function callItems(message: Message, index: number, context: ConversionContext): Item[] {
  const extras = extrasOf(message, "openai");
  const stored = isRecord(extras.callItems) ? extras.callItems : {};
  const custom = Array.isArray(extras.customCalls) ? extras.customCalls : [];
  return (message.tool_calls ?? []).map((call, callIndex) => {
    const fields = isRecord(stored[call.id]) ? (stored[call.id] as Item) : {};
    const type = typeof fields.type === "string" && fields.type in CALL_KINDS ? fields.type : custom.includes(call.id) ? "custom_tool_call" : "function_call";
    const kind = CALL_KINDS[type];
    const { noCallId, ...rest } = fields;
    const item: Item = { type, ...rest };
    if (noCallId !== true) item.call_id = call.id;
    if (kind.name === undefined) item.name = call.function.name;
    const text = call.function.arguments;
    item[kind.argument] =
      type === "function_call" || type === "custom_tool_call"
        ? text
        : (argumentsObject(text) ?? warnInput(text, call.id, ["messages", index, "tool_calls", callIndex], index, context));
    return item;
  });
}

function warnInput(text: string, id: string, path: JsonPath, index: number, context: ConversionContext): Record<string, unknown> {
  context.warn("part-approximated", `tool call '${id}' has input that is not a JSON object; it was wrapped as {"input": ...}`, path, index);
  return { input: text };
}

function outputItem(message: Message, index: number, context: ConversionContext): Item {
  const extras = extrasOf(message, "openai");
  const type = typeof extras.type === "string" ? extras.type : "function_call_output";
  const item: Item = { type };
  if (extras.noCallId !== true) item.call_id = message.tool_call_id;
  const parts = partsToWrite(message);
  if (extras.output === "json") item.output = parseJson(message.content ?? "");
  else if (extras.output === "screenshot" && parts[0]?.type === "image") {
    const image = writeResponsesPart(parts[0], false) ?? {};
    item.output = {
      type: "computer_screenshot",
      ...(image.image_url === undefined ? {} : { image_url: image.image_url }),
      ...(image.file_id === undefined ? {} : { file_id: image.file_id }),
    };
  } else item.output = message.parts === undefined ? (message.content ?? "") : writeParts(parts, false, index, context);
  if (isRecord(extras.fields)) Object.assign(item, extras.fields);
  return item;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
