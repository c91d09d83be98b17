/**
 * Anthropic Messages → canonical messages. An assistant's tool_use blocks
 * become one message with tool_calls; a user's tool_result blocks become one
 * tool message each, in block order, before a user message for the rest.
 */
import * as z from "zod";
import type { Message, ToolCall } from "@/lib/context/messages";
import { PART_SEPARATOR, placeholderFor } from "./content";
import { isRecord, validate, type MessageScope } from "./issues";

const messageSchema = z.object(
  {
    role: z.string({ error: 'a message needs a role: "user" or "assistant"' }).refine((role) => role === "user" || role === "assistant", {
      error: (issue) =>
        issue.input === "system"
          ? 'an Anthropic message role must be "user" or "assistant" (put the system prompt in the top-level system field)'
          : `unknown role ${JSON.stringify(issue.input)}: an Anthropic message role must be "user" or "assistant"`,
    }),
    content: z.union([z.string(), z.array(z.unknown())], { error: "content must be a string or an array of content blocks" }),
  },
  { error: "each message must be an object with a role and content" },
);

const textBlock = z.object({ text: z.string({ error: "a text block needs a string text" }) });
const toolUseBlock = z.object({
  id: z.string({ error: "a tool_use block needs a string id" }).min(1, { error: "a tool_use block has an empty id" }),
  name: z.string({ error: "a tool_use block needs a string name" }).min(1, { error: "a tool_use block has an empty name" }),
  input: z.record(z.string(), z.unknown(), { error: "a tool_use block needs an input object" }),
});
const toolResultBlock = z.object({
  tool_use_id: z.string({ error: "a tool_result block needs a string tool_use_id" }).min(1, { error: "a tool_result block has an empty tool_use_id" }),
  content: z.union([z.string(), z.array(z.unknown())], { error: "a tool_result's content must be a string or an array of blocks" }).optional(),
  is_error: z.boolean({ error: "a tool_result's is_error must be a boolean" }).optional(),
});

/** Blocks we cannot represent and drop, with a warning (reasoning is not part of the context sent back). */
const droppedBlocks = new Set(["thinking", "redacted_thinking", "server_tool_use", "web_search_tool_result"]);

/** Converts Anthropic messages, appending to `messages` (which may already hold the system prompt). */
export function convertAnthropicMessages(raw: readonly unknown[], scope: MessageScope, messages: Message[]): void {
  const toolNames = new Map<string, string>();
  for (let index = 0; index < raw.length && !scope.issues.isFull; index += 1) {
    const parsed = validate(messageSchema, raw[index], (path, message) => scope.fail(index, path, message));
    if (parsed === undefined) continue;
    if (typeof parsed.content === "string") {
      messages.push({ role: parsed.role as "user" | "assistant", content: parsed.content });
      continue;
    }
    const converter = parsed.role === "assistant" ? convertAssistant : convertUser;
    converter(parsed.content, new BlockReader(scope, index, messages), toolNames);
  }
}

/** Reads one message's blocks, reporting at `messages[index].content[block]`. */
class BlockReader {
  constructor(
    readonly scope: MessageScope,
    readonly index: number,
    readonly messages: Message[],
  ) {}

  parse<T>(schema: z.ZodType<T>, block: unknown, blockIndex: number): T | undefined {
    return validate(schema, block, (path, message) => this.scope.fail(this.index, ["content", blockIndex, ...path], message));
  }

  typeOf(block: unknown, blockIndex: number, path: (string | number)[] = []): string | undefined {
    if (isRecord(block) && typeof block.type === "string") return block.type;
    this.scope.fail(this.index, ["content", ...path, blockIndex], "a content block must be an object with a string type");
    return undefined;
  }

  /** Text for a block we keep only as a placeholder, or drop; warns either way. */
  other(type: string, blockIndex: number, path: (string | number)[] = []): string | undefined {
    const options = { messageIndex: this.messages.length, path: this.scope.pathOf(this.index, "content", ...path, blockIndex) };
    if (droppedBlocks.has(type)) {
      this.scope.warn("block-dropped", `dropped a content block of type ${type}`, options);
      return undefined;
    }
    const placeholder = placeholderFor(type);
    this.scope.warn("content-placeholder", `a content block of type ${type} was replaced by the text ${placeholder}`, options);
    return placeholder;
  }

  misplaced(blockIndex: number, message: string): void {
    this.scope.fail(this.index, ["content", blockIndex], message);
  }
}

function convertAssistant(blocks: readonly unknown[], reader: BlockReader, toolNames: Map<string, string>): void {
  const texts: string[] = [];
  const calls: ToolCall[] = [];
  blocks.forEach((block, blockIndex) => {
    const type = reader.typeOf(block, blockIndex);
    if (type === "text") mapText(reader.parse(textBlock, block, blockIndex), texts);
    else if (type === "tool_use") {
      const use = reader.parse(toolUseBlock, block, blockIndex);
      if (use === undefined) return;
      toolNames.set(use.id, use.name);
      calls.push({ id: use.id, type: "function", function: { name: use.name, arguments: JSON.stringify(use.input) } });
    } else if (type === "tool_result") reader.misplaced(blockIndex, "a tool_result block belongs in a user message");
    else if (type !== undefined) pushDefined(reader.other(type, blockIndex), texts);
  });
  const message: Message = { role: "assistant", content: texts.length > 0 ? texts.join(PART_SEPARATOR) : null };
  if (calls.length > 0) message.tool_calls = calls;
  reader.messages.push(message);
}

function convertUser(blocks: readonly unknown[], reader: BlockReader, toolNames: Map<string, string>): void {
  const texts: string[] = [];
  let results = 0;
  blocks.forEach((block, blockIndex) => {
    const type = reader.typeOf(block, blockIndex);
    if (type === "text") mapText(reader.parse(textBlock, block, blockIndex), texts);
    else if (type === "tool_result") {
      const result = reader.parse(toolResultBlock, block, blockIndex);
      if (result === undefined) return;
      const text = resultText(result.content, reader, blockIndex);
      const message: Message = { role: "tool", content: result.is_error ? `[error] ${text}` : text, tool_call_id: result.tool_use_id };
      const name = toolNames.get(result.tool_use_id);
      if (name !== undefined) message.name = name;
      reader.messages.push(message);
      results += 1;
    } else if (type === "tool_use") reader.misplaced(blockIndex, "a tool_use block belongs in an assistant message");
    else if (type !== undefined) pushDefined(reader.other(type, blockIndex), texts);
  });
  // Tool results must follow their call directly, so the user's own words come after them.
  if (texts.length > 0 || results === 0) reader.messages.push({ role: "user", content: texts.join(PART_SEPARATOR) });
}

function resultText(content: string | unknown[] | undefined, reader: BlockReader, blockIndex: number): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  const texts: string[] = [];
  content.forEach((inner, innerIndex) => {
    const type = reader.typeOf(inner, innerIndex, [blockIndex, "content"]);
    if (type === "text" && isRecord(inner) && typeof inner.text === "string") texts.push(inner.text);
    else if (type === "text") reader.scope.fail(reader.index, ["content", blockIndex, "content", innerIndex, "text"], "a text block needs a string text");
    else if (type !== undefined) pushDefined(reader.other(type, innerIndex, [blockIndex, "content"]), texts);
  });
  return texts.join(PART_SEPARATOR);
}

function mapText(block: { text: string } | undefined, texts: string[]): void {
  if (block !== undefined) texts.push(block.text);
}

function pushDefined(text: string | undefined, texts: string[]): void {
  if (text !== undefined) texts.push(text);
}
