/**
 * One Letta message → the OpenAI chat messages Letta sends for it
 * (`Message.to_openai_dict`): assistant and approval-request messages carry
 * the tool calls, a tool message becomes one result for each of its
 * `tool_returns`, an approval response (the user's yes or no) is not sent.
 */
import { isRecord, type JsonPath, type PathNotes } from "../issues";
import { resultText } from "./anthropic-wire";

type Raw = Record<string, unknown>;

/** Chat messages for one Letta message; an empty list for a message Letta does not send. */
export function chatMessagesOf(message: Raw, path: JsonPath, notes: PathNotes): Raw[] {
  const role = message.role;
  const parts = contentParts(message.content, [...path, "content"], notes);
  const texts = parts.filter((part) => part.type === "text");
  switch (role) {
    case "system":
      return [{ role: "system", content: texts.map((part) => part.text).join("\n") }];
    case "user":
    case "summary":
      return [{ role: "user", content: parts.length === 0 ? "" : parts }];
    case "assistant":
    case "approval": {
      if (role === "approval" && !isCallList(message.tool_calls)) return [];
      const chat: Raw = { role: "assistant", content: texts.length === 0 ? null : texts };
      const reasoning = reasoningDetails(message.content, notes, [...path, "content"]);
      if (reasoning.length > 0) chat.reasoning_details = reasoning;
      if (isCallList(message.tool_calls)) chat.tool_calls = message.tool_calls;
      return [chat];
    }
    case "tool": {
      const returns = Array.isArray(message.tool_returns) ? message.tool_returns.filter(isRecord) : [];
      if (returns.length === 0) return [{ role: "tool", tool_call_id: message.tool_call_id, content: texts.map((part) => part.text).join("\n") }];
      return returns.map((entry) => ({ role: "tool", tool_call_id: entry.tool_call_id ?? message.tool_call_id, content: resultText(entry.func_response) }));
    }
    case "function":
      return [{ role: "function", name: message.name, content: texts.map((part) => part.text).join("\n") }];
    default:
      notes.fail([...path, "role"], `unknown role ${JSON.stringify(role)}: expected system, user, assistant, tool, approval or summary`);
      return [];
  }
}

function isCallList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0;
}

/** Text and images as chat parts; reasoning is read apart (`reasoningDetails`). */
function contentParts(content: unknown, path: JsonPath, notes: PathNotes): Raw[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (content === null || content === undefined) return [];
  if (!Array.isArray(content)) {
    notes.fail(path, "content must be a list of content parts");
    return [];
  }
  return content.flatMap((part: unknown, index): Raw[] => {
    const partPath = [...path, index];
    if (!isRecord(part) || typeof part.type !== "string") {
      notes.fail(partPath, "a content part must be an object with a type");
      return [];
    }
    switch (part.type) {
      case "text":
        return [{ type: "text", text: typeof part.text === "string" ? part.text : "" }];
      case "tool_return":
        return [{ type: "text", text: resultText(part.content) }];
      case "image": {
        const url = imageUrl(part.source);
        if (url !== undefined) return [{ type: "image_url", image_url: { url } }];
        notes.warn("part-dropped", "an image Letta keeps in its own storage (source.file_id, no data) was left out", partPath);
        return [];
      }
      case "reasoning":
      case "redacted_reasoning":
      case "omitted_reasoning":
      case "summarized_reasoning":
      case "tool_call":
        return [];
      default:
        notes.fail([...partPath, "type"], `unknown content type ${JSON.stringify(part.type)}: expected text, image, reasoning or tool_return`);
        return [];
    }
  });
}

function imageUrl(source: unknown): string | undefined {
  if (!isRecord(source)) return undefined;
  if (source.type === "url" && typeof source.url === "string") return source.url;
  if (typeof source.data === "string" && typeof source.media_type === "string") return `data:${source.media_type};base64,${source.data}`;
  return undefined;
}

/** Letta's reasoning parts as OpenRouter-style `reasoning_details`, which the chat reader keeps signatures and encrypted content from. */
function reasoningDetails(content: unknown, notes: PathNotes, path: JsonPath): Raw[] {
  if (!Array.isArray(content)) return [];
  const details: Raw[] = [];
  content.forEach((part: unknown, index) => {
    if (!isRecord(part)) return;
    if (part.type === "reasoning") {
      const entry: Raw = { type: "reasoning.text", text: typeof part.reasoning === "string" ? part.reasoning : "", index };
      if (typeof part.signature === "string") Object.assign(entry, { signature: part.signature, format: "anthropic-claude-v1" });
      details.push(entry);
    } else if (part.type === "redacted_reasoning" && typeof part.data === "string")
      details.push({ type: "reasoning.encrypted", data: part.data, format: "anthropic-claude-v1", index });
    else if (part.type === "summarized_reasoning") {
      const summary = Array.isArray(part.summary) ? part.summary.filter(isRecord) : [];
      const common = { index, format: "openai-responses-v1", ...(typeof part.id === "string" ? { id: part.id } : {}) };
      for (const entry of summary) details.push({ type: "reasoning.summary", summary: String(entry.text ?? ""), ...common });
      if (typeof part.encrypted_content === "string") details.push({ type: "reasoning.encrypted", data: part.encrypted_content, ...common });
    } else if (part.type === "omitted_reasoning")
      notes.warn("part-dropped", "the provider hid this reasoning: Letta kept only that it happened", [...path, index]);
    else if (part.type === "tool_call")
      notes.warn("part-dropped", "a tool_call content part (Letta keeps the calls in tool_calls) was left out", [...path, index]);
  });
  return details;
}
