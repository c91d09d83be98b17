/**
 * Vercel AI SDK v5 `ModelMessage[]` (what `generateText` and
 * `convertToModelMessages` take): `{role, content}` with typed parts
 * (`tool-call`, `tool-result`, `image`, `file`, `reasoning`). Plain text
 * messages read the same as OpenAI chat and are left to it; these are told by their parts.
 */
import { isRecord, type JsonPath, type MessageScope } from "../issues";
import type { DocumentImporter } from "../registry";
import { mediaBlock, readAnthropicWire, resultText, type WireMessage } from "./anthropic-wire";

/** Parts only the AI SDK writes this way (OpenAI's `file` holds `file`, Anthropic's `image` a `source`). */
function isSdkPart(part: unknown): boolean {
  if (!isRecord(part)) return false;
  if (part.type === "tool-call" || part.type === "tool-result") return typeof part.toolCallId === "string";
  if (part.type === "image") return "image" in part;
  if (part.type === "file") return "data" in part && "mediaType" in part;
  return false;
}

function hasSdkPart(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value.content) && value.content.some(isSdkPart);
}

export const aiSdkModelImporter: DocumentImporter = {
  format: "ai-sdk-model",
  detect(value) {
    const messages = isRecord(value) && Array.isArray(value.messages) ? value.messages : value;
    return Array.isArray(messages) && messages.some(hasSdkPart) && messages.every((message) => isRecord(message) && typeof message.role === "string");
  },
  convert(value, place, context) {
    const inMessages = isRecord(value) && Array.isArray(value.messages);
    const path = inMessages ? [...place.path, "messages"] : place.path;
    const raw = (inMessages ? (value as { messages: unknown[] }).messages : value) as Record<string, unknown>[];
    const scope = context.scope(path, place.conversationIndex);
    const wire: WireMessage[] = [];
    raw.forEach((message, index) => {
      const blocks = toBlocks(message, index, scope);
      if (blocks !== undefined) wire.push({ role: message.role === "tool" ? "user" : String(message.role), content: blocks, source: [...path, index] });
    });
    const { messages } = readAnthropicWire(scope, wire);
    return [{ format: "ai-sdk-model", messages, warnings: scope.warnings }];
  },
};

function providerAnthropic(holder: Record<string, unknown>): Record<string, unknown> {
  const options = holder.providerOptions;
  return isRecord(options) && isRecord(options.anthropic) ? options.anthropic : {};
}

function toBlocks(message: Record<string, unknown>, index: number, scope: MessageScope): unknown {
  if (!["system", "user", "assistant", "tool"].includes(String(message.role))) {
    scope.fail(index, ["role"], `unknown role ${JSON.stringify(message.role)}: a ModelMessage role is system, user, assistant or tool`);
    return undefined;
  }
  if (typeof message.content === "string") return message.content;
  if (!Array.isArray(message.content)) {
    scope.fail(index, ["content"], "content must be a string or an array of parts");
    return undefined;
  }
  const blocks: Record<string, unknown>[] = [];
  message.content.forEach((raw: unknown, partIndex) => {
    const at: JsonPath = ["content", partIndex];
    if (!isRecord(raw) || typeof raw.type !== "string") return scope.fail(index, at, "a part must be an object with a string type");
    const block = toBlock(raw, (field, problem) => scope.fail(index, [...at, field], problem));
    if (block === undefined) return;
    const mark = providerAnthropic(raw).cacheControl;
    if (isRecord(mark)) block.cache_control = mark;
    blocks.push(block);
  });
  return blocks;
}

function toBlock(part: Record<string, unknown>, fail: (field: string, problem: string) => void): Record<string, unknown> | undefined {
  const mediaType = typeof part.mediaType === "string" ? part.mediaType : undefined;
  switch (part.type) {
    case "text":
      if (typeof part.text === "string") return { type: "text", text: part.text };
      return void fail("text", "a text part needs a string text");
    case "reasoning": {
      if (typeof part.text !== "string") return void fail("text", "a reasoning part needs a string text");
      const signature = providerAnthropic(part).signature;
      return typeof signature === "string" ? { type: "thinking", thinking: part.text, signature } : { type: "thinking", thinking: part.text };
    }
    case "image":
      if (typeof part.image === "string") return mediaBlock(part.image, mediaType ?? "image/*");
      return void fail("image", "an image part needs its image as a URL, a data URL or base64 text");
    case "file":
      if (typeof part.data === "string") return mediaBlock(part.data, mediaType, typeof part.filename === "string" ? part.filename : undefined);
      return void fail("data", "a file part needs its data as a URL, a data URL or base64 text");
    case "tool-call":
      if (typeof part.toolCallId !== "string") return void fail("toolCallId", "a tool-call part needs a string toolCallId");
      if (typeof part.toolName !== "string") return void fail("toolName", "a tool-call part needs a string toolName");
      return { type: "tool_use", id: part.toolCallId, name: part.toolName, input: isRecord(part.input) ? part.input : {} };
    case "tool-result": {
      if (typeof part.toolCallId !== "string") return void fail("toolCallId", "a tool-result part needs a string toolCallId");
      const output = isRecord(part.output) ? part.output : { type: "json", value: part.output ?? part.result };
      const block: Record<string, unknown> = { type: "tool_result", tool_use_id: part.toolCallId, content: resultText(output.value) };
      if (output.type === "error-text" || output.type === "error-json") block.is_error = true;
      return block;
    }
    default:
      return { ...part };
  }
}
