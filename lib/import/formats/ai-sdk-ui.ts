/**
 * Vercel AI SDK v5 `UIMessage[]` (`{id, role, parts}`), as `useChat` keeps
 * them. An assistant message holds several steps (`step-start`); each step
 * becomes an assistant message with its tool calls, then the results of those
 * calls, as `convertToModelMessages` sends them. Sources and data parts, which
 * the AI SDK does not send to the model either, are dropped with a warning.
 */
import { isRecord, type JsonPath, type MessageScope } from "../issues";
import type { DocumentImporter } from "../registry";
import { mediaBlock, readAnthropicWire, resultText, type WireMessage } from "./anthropic-wire";

const ROLES = new Set(["system", "user", "assistant"]);

function isUiMessage(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value.parts) && typeof value.role === "string" && ROLES.has(value.role) && !("content" in value);
}

export const aiSdkUiImporter: DocumentImporter = {
  format: "ai-sdk-ui",
  detect(value) {
    const messages = isRecord(value) && Array.isArray(value.messages) ? value.messages : value;
    return Array.isArray(messages) && messages.length > 0 && messages.every(isUiMessage);
  },
  convert(value, place, context) {
    const inMessages = isRecord(value) && Array.isArray(value.messages);
    const path = inMessages ? [...place.path, "messages"] : place.path;
    const raw = (inMessages ? (value as { messages: unknown[] }).messages : value) as Record<string, unknown>[];
    const scope = context.scope(path, place.conversationIndex);
    const wire: WireMessage[] = [];
    raw.forEach((message, index) => toWire(message, [...path, index], index, scope, wire));
    const { messages } = readAnthropicWire(scope, wire);
    return [{ format: "ai-sdk-ui", messages, warnings: scope.warnings }];
  },
};

/** Cache marks the Anthropic provider reads from `providerMetadata`. */
function cacheControl(part: Record<string, unknown>): Record<string, unknown> | undefined {
  const metadata = part.providerMetadata ?? part.providerOptions;
  const anthropic = isRecord(metadata) && isRecord(metadata.anthropic) ? metadata.anthropic : undefined;
  return anthropic !== undefined && isRecord(anthropic.cacheControl) ? anthropic.cacheControl : undefined;
}

function toWire(message: Record<string, unknown>, path: JsonPath, index: number, scope: MessageScope, wire: WireMessage[]): void {
  const role = String(message.role);
  let blocks: Record<string, unknown>[] = [];
  let results: Record<string, unknown>[] = [];
  const flush = () => {
    if (blocks.length > 0) wire.push({ role, content: blocks, source: path });
    if (results.length > 0) wire.push({ role: "user", content: results, source: path });
    blocks = [];
    results = [];
  };
  (message.parts as unknown[]).forEach((raw, partIndex) => {
    const at: JsonPath = ["parts", partIndex];
    if (!isRecord(raw) || typeof raw.type !== "string") return scope.fail(index, at, "a UIMessage part must be an object with a string type");
    const part = raw as Record<string, unknown> & { type: string };
    if (part.type === "step-start") return flush();
    if (part.type === "text" || part.type === "reasoning") {
      if (typeof part.text !== "string") return scope.fail(index, [...at, "text"], `a ${part.type} part needs a string text`);
      if (part.type === "text") {
        const mark = cacheControl(part);
        blocks.push(mark === undefined ? { type: "text", text: part.text } : { type: "text", text: part.text, cache_control: mark });
        return;
      }
      const metadata = isRecord(part.providerMetadata) && isRecord(part.providerMetadata.anthropic) ? part.providerMetadata.anthropic : {};
      if (typeof metadata.redactedData === "string") blocks.push({ type: "redacted_thinking", data: metadata.redactedData });
      else
        blocks.push(
          typeof metadata.signature === "string"
            ? { type: "thinking", thinking: part.text, signature: metadata.signature }
            : { type: "thinking", thinking: part.text },
        );
      return;
    }
    if (part.type === "file") {
      if (typeof part.url !== "string") return scope.fail(index, [...at, "url"], "a file part needs a string url (a URL or a data URL)");
      blocks.push(
        mediaBlock(part.url, typeof part.mediaType === "string" ? part.mediaType : undefined, typeof part.filename === "string" ? part.filename : undefined),
      );
      return;
    }
    if (part.type === "dynamic-tool" || part.type.startsWith("tool-")) {
      const name = part.type === "dynamic-tool" ? part.toolName : part.type.slice("tool-".length);
      if (typeof part.toolCallId !== "string") return scope.fail(index, [...at, "toolCallId"], "a tool part needs a string toolCallId");
      if (typeof name !== "string" || name === "") return scope.fail(index, [...at, "toolName"], "a dynamic-tool part needs a string toolName");
      blocks.push({ type: "tool_use", id: part.toolCallId, name, input: isRecord(part.input) ? part.input : {} });
      if (part.state === "output-available") results.push({ type: "tool_result", tool_use_id: part.toolCallId, content: resultText(part.output) });
      else if (part.state === "output-error")
        results.push({ type: "tool_result", tool_use_id: part.toolCallId, content: resultText(part.errorText), is_error: true });
      return;
    }
    scope.warn("part-dropped", `a ${part.type} part is shown in the chat but not sent to the model: dropped`, { path: [...scope.pathOf(index), ...at] });
  });
  flush();
}
