/**
 * OpenAI Responses items → canonical messages (F-R1–F-R5 in SPEC.md). The flat
 * item list is grouped: an assistant turn's reasoning, message, built-in tool
 * items and calls become one assistant message; each call output a tool message.
 */
import type { ContentPart, Message, ProviderExtras, ToolCall } from "@/lib/context/messages";
import { buildMessage, nameToolResults, withExtras } from "../canonical";
import { isRecord, otherFields, type ConversionContext } from "../context";
import type { JsonPath } from "../types";
import { CALL_KINDS, OUTPUT_KINDS } from "./calls";
import { readResponsesContent } from "./content";

/** The assistant turn being gathered. */
interface Turn {
  parts: ContentPart[];
  calls: ToolCall[];
  /** Per call id: what its item held besides id, name and input. */
  callItems: Record<string, Record<string, unknown>>;
  message?: Record<string, unknown>;
}

/** Reads `input` (a string, or items) or a response's `output`, appending to `messages`. */
export function readResponsesItems(raw: unknown, context: ConversionContext, messages: Message[] = []): Message[] {
  if (typeof raw === "string") {
    messages.push(buildMessage("user", [{ type: "text", text: raw }]));
    return messages;
  }
  if (!Array.isArray(raw)) {
    context.fail([], "input must be a string or an array of items");
    return messages;
  }
  let turn: Turn | undefined;
  const flush = () => {
    if (turn !== undefined) messages.push(finishTurn(turn));
    turn = undefined;
  };
  for (let index = 0; index < raw.length && !context.isFull; index += 1) {
    const item = raw[index];
    if (!isRecord(item)) {
      context.fail([index], "each input item must be an object", index);
      continue;
    }
    const type = item.type ?? (item.role !== undefined ? "message" : undefined);
    if (typeof type !== "string") {
      context.fail([index, "type"], "an item needs a string type (or a role, for a message)", index);
      continue;
    }
    const place = { context, path: [index] as JsonPath, index, at: messages.length };
    if (type === "message" && item.role === "assistant") {
      if (turn?.message !== undefined || (turn?.calls.length ?? 0) > 0) flush();
      turn ??= newTurn();
      readAssistantMessage(item, turn, place);
    } else if (type === "reasoning") {
      if (turn?.message !== undefined || (turn?.calls.length ?? 0) > 0) flush();
      turn ??= newTurn();
      const part = readReasoning(item, place);
      if (part !== undefined) turn.parts.push(part);
    } else if (type in CALL_KINDS) {
      turn ??= newTurn();
      readCall(item, type, turn, place);
    } else if (type === "message" || OUTPUT_KINDS.has(type)) {
      flush();
      const message = type === "message" ? readInputMessage(item, place) : readOutput(item, type, place);
      if (message !== undefined) messages.push(message);
    } else {
      // F-R4: a built-in tool item (web search, code interpreter, MCP...) stays whole in the assistant turn.
      turn ??= newTurn();
      turn.parts.push({ type: "provider", provider: "openai", data: item });
    }
  }
  flush();
  return nameToolResults(messages);
}

function newTurn(): Turn {
  return { parts: [], calls: [], callItems: {} };
}

function finishTurn(turn: Turn): Message {
  const fields: Record<string, unknown> = {};
  if (turn.message !== undefined && Object.keys(turn.message).length > 0) fields.item = turn.message;
  if (Object.keys(turn.callItems).length > 0) fields.callItems = turn.callItems;
  return buildMessage("assistant", turn.parts, { tool_calls: turn.calls, extras: withExtras(undefined, "openai", fields) });
}

interface Place {
  context: ConversionContext;
  path: JsonPath;
  index: number;
  at: number;
}

function readAssistantMessage(item: Record<string, unknown>, turn: Turn, place: Place): void {
  const parts = readResponsesContent(item.content, place.context, [...place.path, "content"], place.index);
  if (parts === undefined) return;
  turn.parts.push(...parts);
  turn.message = otherFields(item, ["type", "role", "content"]) ?? {};
}

function readInputMessage(item: Record<string, unknown>, place: Place): Message | undefined {
  const role = item.role;
  if (role !== "user" && role !== "system" && role !== "developer") {
    place.context.fail([...place.path, "role"], `unknown role ${JSON.stringify(role)}: expected user, system, developer or assistant`, place.index);
    return undefined;
  }
  const parts = readResponsesContent(item.content, place.context, [...place.path, "content"], place.index);
  if (parts === undefined) return undefined;
  const extras = withExtras(undefined, "openai", { role: role === "developer" ? role : undefined, fields: otherFields(item, ["type", "role", "content"]) });
  return buildMessage(role === "developer" ? "system" : role, parts, { extras });
}

function readReasoning(item: Record<string, unknown>, place: Place): ContentPart | undefined {
  const part: ContentPart = { type: "reasoning", text: "" };
  const summary = Array.isArray(item.summary) ? item.summary : [];
  const texts = summary.map((entry: unknown) => (isRecord(entry) && typeof entry.text === "string" ? entry.text : undefined));
  if (texts.includes(undefined)) {
    place.context.fail([...place.path, "summary"], 'a reasoning summary must be an array of {type: "summary_text", text}', place.index);
    return undefined;
  }
  if (texts.length > 0) part.summary = texts as string[];
  if (Array.isArray(item.content)) {
    part.text = item.content.map((entry: unknown) => (isRecord(entry) && typeof entry.text === "string" ? entry.text : "")).join("\n");
  }
  if (typeof item.id === "string") part.id = item.id;
  if (typeof item.encrypted_content === "string") part.encrypted = item.encrypted_content;
  const rest = otherFields(item, ["type", "id", "summary", "content", "encrypted_content"].concat(item.status === null ? ["status"] : []));
  if (rest !== undefined) part.extras = withExtras(undefined, "openai", rest);
  return part;
}

function readCall(item: Record<string, unknown>, type: string, turn: Turn, place: Place): void {
  const kind = CALL_KINDS[type];
  const id = typeof item.call_id === "string" ? item.call_id : item.id;
  const name = kind.name ?? item.name;
  if (typeof id !== "string" || id === "") {
    place.context.fail([...place.path, "call_id"], `a ${type} item needs a string call_id`, place.index);
    return;
  }
  if (typeof name !== "string" || name === "") {
    place.context.fail([...place.path, "name"], `a ${type} item needs a string name`, place.index);
    return;
  }
  const input = item[kind.argument];
  if (input === undefined || (type === "function_call" || type === "custom_tool_call" ? typeof input !== "string" : !isRecord(input))) {
    place.context.fail([...place.path, kind.argument], `a ${type} item needs its ${kind.argument}`, place.index);
    return;
  }
  turn.calls.push({ id, type: "function", function: { name, arguments: typeof input === "string" ? input : JSON.stringify(input) } });
  // A function call is the kind a bare call id stands for; only other kinds keep their type.
  const rest = otherFields(item, ["call_id", "name", kind.argument, ...(type === "function_call" ? ["type"] : [])]) ?? {};
  if (typeof item.call_id !== "string") rest.noCallId = true;
  if (Object.keys(rest).length > 0) turn.callItems[id] = rest;
}

function readOutput(item: Record<string, unknown>, type: string, place: Place): Message | undefined {
  const id = typeof item.call_id === "string" ? item.call_id : item.id;
  if (typeof id !== "string" || id === "") {
    place.context.fail([...place.path, "call_id"], `a ${type} item needs the string call_id of the call it answers`, place.index);
    return undefined;
  }
  const output = item.output;
  let parts: ContentPart[] | undefined;
  let shape: string | undefined;
  if (
    typeof output === "string" ||
    (Array.isArray(output) && output.every((entry) => isRecord(entry) && typeof entry.type === "string" && entry.type.startsWith("input_")))
  ) {
    parts = readResponsesContent(output, place.context, [...place.path, "output"], place.index);
  } else if (isRecord(output) && output.type === "computer_screenshot") {
    const url = typeof output.image_url === "string" ? output.image_url : undefined;
    parts = readResponsesContent([{ type: "input_image", image_url: url, file_id: output.file_id }], place.context, [...place.path, "output"], place.index);
    shape = "screenshot";
  } else {
    parts = [{ type: "text", text: JSON.stringify(output ?? null) }];
    shape = "json";
  }
  if (parts === undefined) return undefined;
  const fields = otherFields(item, ["type", "call_id", "output"]);
  const extras: ProviderExtras | undefined = withExtras(undefined, "openai", {
    type: type === "function_call_output" ? undefined : type,
    output: shape,
    noCallId: typeof item.call_id === "string" ? undefined : true,
    fields,
  });
  return buildMessage("tool", parts, { tool_call_id: id, extras });
}
