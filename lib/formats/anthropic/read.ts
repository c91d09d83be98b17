/**
 * Anthropic Messages → canonical messages (F-A1–F-A6 in SPEC.md). An assistant's
 * `tool_use` blocks become its tool calls; a user's `tool_result` blocks
 * become one tool message each, in block order, before a user message for
 * the rest of its blocks.
 */
import type { CacheControl, ContentPart, Message, ToolCall } from "@/lib/context/messages";
import { readCacheControl } from "../cache";
import { buildMessage, nameToolResults, withExtras } from "../canonical";
import { isRecord, otherFields, type ConversionContext } from "../context";
import type { JsonPath } from "../types";
import { readBlock } from "./blocks";

/** Reads an Anthropic `messages` array, appending to `messages` (which may hold the system prompt). */
export function readAnthropicMessageList(raw: unknown, context: ConversionContext, messages: Message[] = []): Message[] {
  if (!Array.isArray(raw)) {
    context.fail([], "messages must be an array of messages {role, content}");
    return messages;
  }
  for (let index = 0; index < raw.length && !context.isFull; index += 1) readMessage(raw[index], [index], index, context, messages);
  return nameToolResults(messages);
}

/** One message at `path` (a response is one message on its own), appending what it becomes. */
export function readMessage(value: unknown, path: JsonPath, index: number, context: ConversionContext, messages: Message[]): void {
  if (!isRecord(value)) {
    context.fail(path, "each message must be an object with a role and content", index);
    return;
  }
  if (value.role !== "user" && value.role !== "assistant") {
    const message =
      value.role === "system"
        ? 'an Anthropic message role must be "user" or "assistant" (put the system prompt in the top-level system field)'
        : value.role === undefined
          ? 'a message needs a role: "user" or "assistant"'
          : `unknown role ${JSON.stringify(value.role)}: an Anthropic message role must be "user" or "assistant"`;
    context.fail([...path, "role"], message, index);
    return;
  }
  const content = value.content;
  if (typeof content === "string") {
    messages.push(buildMessage(value.role, content === "" && value.role === "assistant" ? [] : [{ type: "text", text: content }]));
    return;
  }
  if (!Array.isArray(content)) {
    context.fail([...path, "content"], "content must be a string or an array of content blocks", index);
    return;
  }
  const reader = { context, path: [...path, "content"], index, messages };
  if (value.role === "assistant") readAssistant(content, reader);
  else readUser(content, reader);
}

interface BlockReader {
  context: ConversionContext;
  path: JsonPath;
  index: number;
  messages: Message[];
}

function blockAt(blocks: readonly unknown[], position: number, reader: BlockReader): Record<string, unknown> | undefined {
  const block = blocks[position];
  if (isRecord(block) && typeof block.type === "string") return block;
  reader.context.fail([...reader.path, position], "a content block must be an object with a string type", reader.index);
  return undefined;
}

function readAssistant(blocks: readonly unknown[], reader: BlockReader): void {
  const { context, path, index, messages } = reader;
  const parts: ContentPart[] = [];
  const calls: ToolCall[] = [];
  const callCache: Record<string, CacheControl> = {};
  let cache: CacheControl | undefined;
  blocks.forEach((_, position) => {
    const block = blockAt(blocks, position, reader);
    if (block === undefined) return;
    const blockPath = [...path, position];
    if (block.type === "tool_result") context.fail(blockPath, "a tool_result block belongs in a user message", index);
    else if (block.type === "tool_use") {
      const call = readToolUse(block, context, blockPath, index);
      if (call === undefined) return;
      calls.push(call);
      const mark = readCacheControl(block.cache_control, context, [...blockPath, "cache_control"], index);
      // F-A2: the last block's cache mark is the message's; earlier tool_use marks are kept by call id.
      if (mark !== undefined && position === blocks.length - 1) cache = mark;
      else if (mark !== undefined) callCache[call.id] = mark;
    } else {
      const part = readBlock(block, context, blockPath, messages.length);
      if (part !== undefined) parts.push(part);
    }
  });
  const lastIsCall = isRecord(blocks.at(-1)) && (blocks.at(-1) as Record<string, unknown>).type === "tool_use";
  const extras = Object.keys(callCache).length > 0 ? withExtras(undefined, "anthropic", { callCache }) : undefined;
  messages.push(buildMessage("assistant", parts, { tool_calls: calls, cache_control: cache, extras, lastPartEndsMessage: !lastIsCall }));
}

function readToolUse(block: Record<string, unknown>, context: ConversionContext, path: JsonPath, index: number): ToolCall | undefined {
  if (typeof block.id !== "string" || block.id === "") return void context.fail([...path, "id"], "a tool_use block needs a non-empty string id", index);
  if (typeof block.name !== "string" || block.name === "") return void context.fail([...path, "name"], "a tool_use block needs a non-empty string name", index);
  if (!isRecord(block.input)) return void context.fail([...path, "input"], "a tool_use block needs an input object", index);
  return { id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.input) } };
}

function readUser(blocks: readonly unknown[], reader: BlockReader): void {
  const { context, path, index, messages } = reader;
  const parts: ContentPart[] = [];
  let results = 0;
  blocks.forEach((_, position) => {
    const block = blockAt(blocks, position, reader);
    if (block === undefined) return;
    const blockPath = [...path, position];
    if (block.type === "tool_use") context.fail(blockPath, "a tool_use block belongs in an assistant message", index);
    else if (block.type === "tool_result") {
      const result = readToolResult(block, context, blockPath, index, messages.length);
      if (result === undefined) return;
      messages.push(result);
      results += 1;
    } else {
      const part = readBlock(block, context, blockPath, messages.length);
      if (part !== undefined) parts.push(part);
    }
  });
  // F-A3: tool results must follow their call directly, so the user's own blocks come after them.
  if (parts.length > 0 || results === 0) messages.push(buildMessage("user", parts));
}

function readToolResult(block: Record<string, unknown>, context: ConversionContext, path: JsonPath, index: number, at: number): Message | undefined {
  if (typeof block.tool_use_id !== "string" || block.tool_use_id === "") {
    return void context.fail(
      [...path, "tool_use_id"],
      block.tool_use_id === "" ? "a tool_result block has an empty tool_use_id" : "a tool_result block needs a string tool_use_id",
      index,
    );
  }
  if (block.is_error !== undefined && typeof block.is_error !== "boolean")
    return void context.fail([...path, "is_error"], "a tool_result's is_error must be a boolean", index);
  const parts: ContentPart[] = [];
  const content = block.content;
  if (typeof content === "string") parts.push({ type: "text", text: content });
  else if (Array.isArray(content)) {
    content.forEach((inner: unknown, position) => {
      const innerPath = [...path, "content", position];
      if (!isRecord(inner) || typeof inner.type !== "string") return context.fail(innerPath, "a content block must be an object with a string type", index);
      const part = readBlock(inner, context, innerPath, at);
      if (part !== undefined) parts.push(part);
    });
  } else if (content !== undefined) {
    return void context.fail([...path, "content"], "a tool_result's content must be a string or an array of blocks", index);
  }
  const cache = readCacheControl(block.cache_control, context, [...path, "cache_control"], index);
  const fields = otherFields(block, ["type", "tool_use_id", "content", "cache_control", "is_error"]);
  const extras = withExtras(undefined, "anthropic", { isError: block.is_error === true ? true : undefined, fields });
  return buildMessage("tool", parts, { tool_call_id: block.tool_use_id, cache_control: cache, extras, lastPartEndsMessage: false });
}
