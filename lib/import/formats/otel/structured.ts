/**
 * The current GenAI conventions: `gen_ai.system_instructions`,
 * `gen_ai.input.messages` and `gen_ai.output.messages`, messages of typed
 * parts held as JSON → chat messages.
 */
import { isRecord, type JsonPath, type MessageScope } from "../../issues";
import type { ChatWireMessage } from "../chat-wire";
import type { Span } from "./spans";

/** The messages of an attribute holding a JSON array (or an array) of them. */
export function attributeMessages(span: Span, key: string): unknown[] | undefined {
  const attribute = span.attributes.get(key);
  if (attribute === undefined) return undefined;
  if (Array.isArray(attribute.value)) return attribute.value;
  if (typeof attribute.value !== "string") return undefined;
  try {
    const parsed: unknown = JSON.parse(attribute.value);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The span's prompt (system instructions and input messages) and its answer (output messages). */
export function structuredMessages(span: Span, scope: MessageScope): { input: ChatWireMessage[]; output: ChatWireMessage[] } {
  const input: ChatWireMessage[] = [];
  const system = attributeMessages(span, "gen_ai.system_instructions");
  const systemPath = span.attributes.get("gen_ai.system_instructions")?.path;
  if (system !== undefined && systemPath !== undefined) input.push({ message: { role: "system", content: textOf(system) }, source: systemPath });
  input.push(...listMessages(span, "gen_ai.input.messages", scope));
  return { input, output: listMessages(span, "gen_ai.output.messages", scope) };
}

function listMessages(span: Span, key: string, scope: MessageScope): ChatWireMessage[] {
  const attribute = span.attributes.get(key);
  if (attribute === undefined) return [];
  const list = attributeMessages(span, key);
  if (list === undefined) {
    scope.failAt(attribute.path, `${key} must be a JSON array of messages {role, parts}`);
    return [];
  }
  return list.flatMap((message, index) => partsToChat(message, `${key}[${index}]`, attribute.path, scope));
}

function textOf(parts: readonly unknown[]): string {
  return parts.map((part) => (isRecord(part) && typeof part.content === "string" ? part.content : "")).join("\n");
}

function partsToChat(raw: unknown, where: string, source: JsonPath, scope: MessageScope): ChatWireMessage[] {
  if (!isRecord(raw) || typeof raw.role !== "string" || !Array.isArray(raw.parts)) {
    scope.failAt(source, `${where} must be a message {role, parts: [...]}`);
    return [];
  }
  const content: Record<string, unknown>[] = [];
  const calls: Record<string, unknown>[] = [];
  const results: ChatWireMessage[] = [];
  let reasoning = "";
  raw.parts.forEach((part: unknown, index) => {
    if (!isRecord(part)) return scope.failAt(source, `${where}.parts[${index}] must be an object with a type`);
    if (part.type === "text") content.push({ type: "text", text: String(part.content ?? "") });
    else if (part.type === "reasoning") reasoning += String(part.content ?? "");
    else if (part.type === "tool_call") {
      const args = typeof part.arguments === "string" ? part.arguments : JSON.stringify(part.arguments ?? {});
      calls.push({ id: part.id, type: "function", function: { name: part.name, arguments: args } });
    } else if (part.type === "tool_call_response") {
      const response = typeof part.response === "string" ? part.response : JSON.stringify(part.response ?? null);
      results.push({ message: { role: "tool", tool_call_id: part.id, content: response }, source });
    } else if ((part.type === "uri" || part.type === "blob") && part.modality === "image") {
      const url = part.type === "uri" ? part.uri : `data:${String(part.mime_type ?? "image/png")};base64,${String(part.content ?? "")}`;
      content.push({ type: "image_url", image_url: { url } });
    } else scope.warn("part-dropped", `${where}.parts[${index}]: a ${String(part.type)} part has no place in a chat message: dropped`, { path: source });
  });
  if (raw.role === "tool") return results;
  const message: Record<string, unknown> = { role: raw.role, content: content.length === 0 ? (raw.role === "assistant" ? null : "") : content };
  if (calls.length > 0) message.tool_calls = calls;
  if (reasoning !== "") message.reasoning_content = reasoning;
  return [{ message, source }, ...results];
}
