/**
 * OpenTelemetry GenAI spans (OTLP/JSON `resourceSpans`, a span, or spans):
 * `gen_ai.input.messages` / `gen_ai.output.messages` (messages of typed parts)
 * and the older indexed `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`
 * attributes. Each chat span repeats the conversation so far: per trace, the
 * span with the longest input is imported.
 */
import { isRecord, type JsonPath, type MessageScope } from "../issues";
import type { DocumentImporter, ImportContext } from "../registry";
import type { ConversationDraft } from "../requests";
import { readChatWire, type ChatWireMessage } from "./chat-wire";

interface Span {
  path: JsonPath;
  traceId: string;
  attributes: Map<string, { value: unknown; path: JsonPath }>;
}

export const otelImporter: DocumentImporter = {
  format: "otel",
  detect(value) {
    if (isRecord(value) && Array.isArray(value.resourceSpans)) return true;
    const spans = Array.isArray(value) ? value : [value];
    return (
      spans.length > 0 &&
      spans.every((span) => isRecord(span) && "attributes" in span && "spanId" in span) &&
      spans.some((span) => hasGenAi((span as Record<string, unknown>).attributes))
    );
  },
  convert(value, place, context) {
    const spans = collectSpans(value, place.path).filter((span) => span.attributes.has("gen_ai.input.messages") || span.attributes.has("gen_ai.prompt.0.role"));
    const scope = context.scope(place.path, place.conversationIndex);
    if (spans.length === 0) {
      scope.failAt(place.path, "no span has gen_ai.input.messages or gen_ai.prompt.0.role: there is no conversation in these spans");
      return [{ format: "otel", messages: [], warnings: scope.warnings }];
    }
    const byTrace = new Map<string, Span[]>();
    for (const span of spans) byTrace.set(span.traceId, [...(byTrace.get(span.traceId) ?? []), span]);
    return [...byTrace.values()].map((traceSpans, index) => convertTrace(traceSpans, context, byTrace.size > 1 ? index : place.conversationIndex));
  },
};

function hasGenAi(attributes: unknown): boolean {
  if (Array.isArray(attributes))
    return attributes.some((attribute) => isRecord(attribute) && typeof attribute.key === "string" && attribute.key.startsWith("gen_ai."));
  return isRecord(attributes) && Object.keys(attributes).some((key) => key.startsWith("gen_ai."));
}

function collectSpans(value: unknown, path: JsonPath): Span[] {
  if (isRecord(value) && Array.isArray(value.resourceSpans)) {
    return value.resourceSpans.flatMap((resource: unknown, resourceIndex) =>
      (isRecord(resource) && Array.isArray(resource.scopeSpans) ? resource.scopeSpans : []).flatMap((scopeSpans: unknown, scopeIndex) =>
        (isRecord(scopeSpans) && Array.isArray(scopeSpans.spans) ? scopeSpans.spans : []).map((span: unknown, spanIndex) =>
          readSpan(span, [...path, "resourceSpans", resourceIndex, "scopeSpans", scopeIndex, "spans", spanIndex]),
        ),
      ),
    );
  }
  return (Array.isArray(value) ? value : [value]).map((span, index) => readSpan(span, Array.isArray(value) ? [...path, index] : path));
}

/** OTLP attribute values (`{stringValue}`, `{intValue}`, `{arrayValue: {values}}`) → plain values. */
function plain(value: unknown): unknown {
  if (!isRecord(value)) return value;
  if ("stringValue" in value) return value.stringValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return value.doubleValue;
  if ("boolValue" in value) return value.boolValue;
  if (isRecord(value.arrayValue)) return (Array.isArray(value.arrayValue.values) ? value.arrayValue.values : []).map(plain);
  return value;
}

function readSpan(raw: unknown, path: JsonPath): Span {
  const span = isRecord(raw) ? raw : {};
  const attributes = new Map<string, { value: unknown; path: JsonPath }>();
  if (Array.isArray(span.attributes)) {
    span.attributes.forEach((attribute: unknown, index) => {
      if (isRecord(attribute) && typeof attribute.key === "string")
        attributes.set(attribute.key, { value: plain(attribute.value), path: [...path, "attributes", index, "value"] });
    });
  } else if (isRecord(span.attributes)) {
    for (const [key, value] of Object.entries(span.attributes)) attributes.set(key, { value, path: [...path, "attributes", key] });
  }
  return { path, traceId: String(span.traceId ?? span.trace_id ?? ""), attributes };
}

function convertTrace(spans: readonly Span[], context: ImportContext, conversationIndex?: number): ConversationDraft {
  const sized = spans.map((span) => ({ span, input: attributeMessages(span, "gen_ai.input.messages") }));
  const chosen = sized.reduce((best, next) => ((next.input?.length ?? 0) >= (best.input?.length ?? 0) ? next : best));
  const scope = context.scope(chosen.span.path, conversationIndex);
  const wire = chosen.span.attributes.has("gen_ai.input.messages") ? structuredMessages(chosen.span, scope) : indexedMessages(chosen.span);
  const messages = readChatWire(scope, wire);
  if (spans.length > 1)
    scope.warn(
      "part-approximated",
      `the trace has ${spans.length} chat spans, each repeating the conversation so far: imported the one with the longest input`,
      { path: chosen.span.path },
    );
  const model = chosen.span.attributes.get("gen_ai.request.model")?.value;
  return { format: "otel", messages, warnings: scope.warnings, source: { traceId: chosen.span.traceId, model } };
}

function attributeMessages(span: Span, key: string): unknown[] | undefined {
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

/** `gen_ai.system_instructions`, `gen_ai.input.messages` and `gen_ai.output.messages` → chat messages. */
function structuredMessages(span: Span, scope: MessageScope): ChatWireMessage[] {
  const wire: ChatWireMessage[] = [];
  const system = attributeMessages(span, "gen_ai.system_instructions");
  const systemPath = span.attributes.get("gen_ai.system_instructions")?.path;
  if (system !== undefined && systemPath !== undefined) wire.push({ message: { role: "system", content: textOf(system) }, source: systemPath });
  for (const key of ["gen_ai.input.messages", "gen_ai.output.messages"]) {
    const attribute = span.attributes.get(key);
    const list = attributeMessages(span, key);
    if (attribute === undefined) continue;
    if (list === undefined) {
      scope.failAt(attribute.path, `${key} must be a JSON array of messages {role, parts}`);
      continue;
    }
    list.forEach((message, index) => wire.push(...partsToChat(message, `${key}[${index}]`, attribute.path, scope)));
  }
  return wire;
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

/** The older `gen_ai.prompt.N.*` and `gen_ai.completion.N.*` attributes → chat messages. */
function indexedMessages(span: Span): ChatWireMessage[] {
  const wire: ChatWireMessage[] = [];
  for (const prefix of ["gen_ai.prompt", "gen_ai.completion"]) {
    for (let index = 0; span.attributes.has(`${prefix}.${index}.role`) || span.attributes.has(`${prefix}.${index}.content`); index += 1) {
      const get = (field: string) => span.attributes.get(`${prefix}.${index}.${field}`)?.value;
      const source = span.attributes.get(`${prefix}.${index}.role`)?.path ?? span.attributes.get(`${prefix}.${index}.content`)?.path ?? span.path;
      const message: Record<string, unknown> = { role: get("role") ?? "assistant", content: get("content") ?? null };
      const toolCallId = get("tool_call_id");
      if (typeof toolCallId === "string") message.tool_call_id = toolCallId;
      const calls: Record<string, unknown>[] = [];
      for (let call = 0; span.attributes.has(`${prefix}.${index}.tool_calls.${call}.name`); call += 1) {
        const field = (name: string) => get(`tool_calls.${call}.${name}`);
        calls.push({ id: field("id"), type: "function", function: { name: field("name"), arguments: String(field("arguments") ?? "{}") } });
      }
      if (calls.length > 0) message.tool_calls = calls;
      if (message.content === null && message.role !== "assistant") message.content = "";
      wire.push({ message, source });
    }
  }
  return wire;
}
