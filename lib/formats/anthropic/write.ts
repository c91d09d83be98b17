/** Canonical messages → an Anthropic Messages request (F-A1–F-A6 in SPEC.md). */
import type { CacheControl, ContentPart, Message } from "@/lib/context/messages";
import { argumentsObject, extrasOf, foreignExtras, impliedName, mediaLosses, partsToWrite } from "../canonical";
import { ConversionContext, isRecord } from "../context";
import type { CanonicalConversation, WriteResult } from "../types";
import { writeBlock } from "./blocks";
import { writeAnthropicTools } from "./tools";

type Block = Record<string, unknown>;
type WireMessage = { role: "user" | "assistant"; content: string | Block[] };

/** `{system?, messages, tools?}` for a Messages request; what Anthropic cannot hold is warned about. */
export function writeAnthropicRequest(conversation: CanonicalConversation): WriteResult<Record<string, unknown>> {
  const context = new ConversionContext("anthropic", []);
  const { messages } = conversation;
  const body: Record<string, unknown> = {};
  let start = 0;
  const system: Block[] = [];
  const callNames = new Map<string, string>();
  while (start < messages.length && messages[start].role === "system") {
    warnMessage(messages[start], start, context, callNames);
    system.push(...blocksOf(messages[start], start, context));
    start += 1;
  }
  if (start > 1) context.warn("system-moved", `${start} leading system messages were joined into Anthropic's one system prompt`, ["messages", 1], 1);
  if (system.length > 0) body.system = start === 1 && isPlainText(messages[0]) ? messages[0].content : system;
  const wire: WireMessage[] = [];
  for (let index = start; index < messages.length; index += 1) writeMessage(messages[index], index, wire, context, callNames);
  body.messages = wire;
  if (conversation.tools !== undefined && conversation.tools.length > 0) body.tools = writeAnthropicTools(conversation.tools, context);
  return { value: body, warnings: context.warnings };
}

function isPlainText(message: Message): boolean {
  return message.parts === undefined && message.cache_control === undefined;
}

function warnMessage(message: Message, index: number, context: ConversionContext, callNames: Map<string, string>): void {
  const path = ["messages", index];
  for (const provider of foreignExtras(message, "anthropic"))
    context.warn("extras-dropped", `${provider} fields of this message have no place in Anthropic Messages`, path, index);
  for (const call of message.tool_calls ?? []) callNames.set(call.id, call.function.name);
  if (message.name !== undefined && !impliedName(message, callNames)) context.warn("part-dropped", "Anthropic messages have no name", [...path, "name"], index);
}

function writeMessage(message: Message, index: number, wire: WireMessage[], context: ConversionContext, callNames: Map<string, string>): void {
  const path = ["messages", index];
  warnMessage(message, index, context, callNames);
  if (message.role === "system") {
    context.warn("system-moved", "Anthropic has a system prompt only before the conversation; this system message became a user message", path, index);
    wire.push({ role: "user", content: blocksOf(message, index, context) });
    return;
  }
  if (message.role === "tool") {
    appendToUserTurn(wire, [toolResult(message, index, context)], true);
    return;
  }
  const blocks = blocksOf(message, index, context);
  if (message.role === "assistant") {
    blocks.push(...toolUses(message, index, context));
    if (message.cache_control !== undefined && blocks.length > 0) blocks[blocks.length - 1].cache_control = message.cache_control;
    wire.push({ role: "assistant", content: plainOrBlocks(message, blocks) });
    return;
  }
  const content = plainOrBlocks(message, blocks);
  // F-A3: a user message right after tool results shares their wire message, as Anthropic requires.
  const previous = wire.at(-1);
  if (previous?.role === "user" && Array.isArray(previous.content) && previous.content.at(-1)?.type === "tool_result" && index > 0) {
    previous.content.push(...(typeof content === "string" ? [{ type: "text", text: content }] : content));
  } else wire.push({ role: "user", content });
}

function plainOrBlocks(message: Message, blocks: Block[]): string | Block[] {
  const only = blocks[0];
  if (blocks.length === 1 && only.type === "text" && Object.keys(only).length === 2 && message.parts === undefined) return only.text as string;
  return blocks;
}

function appendToUserTurn(wire: WireMessage[], blocks: Block[], isResult: boolean): void {
  const previous = wire.at(-1);
  if (isResult && previous?.role === "user" && Array.isArray(previous.content) && previous.content.every((block) => block.type === "tool_result"))
    previous.content.push(...blocks);
  else wire.push({ role: "user", content: blocks });
}

/** The message's parts as blocks (F-3), its cache mark on the last one unless tool calls follow. */
function blocksOf(message: Message, index: number, context: ConversionContext): Block[] {
  const blocks: Block[] = [];
  partsToWrite(message).forEach((part, partIndex) => {
    const block = writeBlock(part);
    const path = ["messages", index, "parts", partIndex];
    if (block === undefined) context.warn("part-dropped", `Anthropic Messages has no place for this ${describe(part)}`, path, index);
    else {
      warnApproximation(part, path, index, context);
      blocks.push(block);
    }
  });
  const hasCalls = (message.tool_calls ?? []).length > 0;
  if (message.role !== "tool" && !hasCalls && message.cache_control !== undefined && blocks.length > 0)
    blocks[blocks.length - 1].cache_control = message.cache_control;
  return blocks;
}

function describe(part: ContentPart): string {
  if (part.type === "provider") return `${part.provider} ${String(part.data.type)} block`;
  if ("source" in part) return `${part.type} (a ${part.source.type} source)`;
  return `${part.type} part`;
}

function warnApproximation(part: ContentPart, path: (string | number)[], index: number, context: ConversionContext): void {
  if (part.type === "refusal") context.warn("part-approximated", "Anthropic has no refusal block; the refusal became text", path, index);
  if (part.type === "reasoning" && (part.encrypted !== undefined || part.id !== undefined || (part.summary !== undefined && part.text !== ""))) {
    context.warn("part-dropped", "Anthropic thinking holds no encrypted content, item id or summary beside the text; they were left out", path, index);
  } else if (part.type === "reasoning" && part.summary !== undefined) {
    context.warn("part-approximated", "the reasoning summary became thinking text", path, index);
  }
  for (const provider of foreignExtras(part, "anthropic"))
    context.warn("extras-dropped", `${provider} fields of this part have no place in Anthropic Messages`, path, index);
  const losses = mediaLosses(part, { title: true });
  if (losses.length > 0) context.warn("part-dropped", `Anthropic Messages has no place for ${losses.join(", ")}`, path, index);
}

function toolUses(message: Message, index: number, context: ConversionContext): Block[] {
  const callCache = extrasOf(message, "anthropic").callCache;
  return (message.tool_calls ?? []).map((call, callIndex) => {
    let input = argumentsObject(call.function.arguments);
    if (input === undefined) {
      context.warn(
        "part-approximated",
        `tool call '${call.id}' has arguments that are not a JSON object; Anthropic's input holds them as {"input": ...}`,
        ["messages", index, "tool_calls", callIndex],
        index,
      );
      input = { input: call.function.arguments };
    }
    const block: Block = { type: "tool_use", id: call.id, name: call.function.name, input };
    const mark = isRecord(callCache) ? (callCache[call.id] as CacheControl | undefined) : undefined;
    if (mark !== undefined) block.cache_control = mark;
    return block;
  });
}

function toolResult(message: Message, index: number, context: ConversionContext): Block {
  const extras = extrasOf(message, "anthropic");
  const block: Block = { type: "tool_result", tool_use_id: message.tool_call_id };
  const blocks = blocksOf(message, index, context);
  const content = plainOrBlocks(message, blocks);
  if (content !== "" && !(Array.isArray(content) && content.length === 0)) block.content = content;
  if (extras.isError === true) block.is_error = true;
  if (isRecord(extras.fields)) Object.assign(block, extras.fields);
  if (message.cache_control !== undefined) block.cache_control = message.cache_control;
  return block;
}
