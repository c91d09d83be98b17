/** What a chat span says besides its messages: the call's time, model, usage and ids, the tools it offered, the session. */
import type { ToolDefinition } from "@/lib/context/messages";
import { type CallFacts, isoTime, readChatTools, readReportedUsage } from "@/lib/formats";
import type { MessageScope } from "../../issues";
import { readWithScope } from "../../requests";
import type { Span } from "./spans";

function stringAttribute(span: Span, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = span.attributes.get(key)?.value;
    if (typeof value === "string" && value !== "") return value;
    if (Array.isArray(value) && typeof value[0] === "string") return value[0];
  }
  return undefined;
}

/** The facts of the span's answer: when it came, how long the call took, the model, the usage reported, the response id and stop reason. */
export function answerFacts(span: Span): CallFacts {
  const facts: CallFacts = {};
  const at = isoTime(span.endMs ?? span.startMs);
  if (at !== undefined) facts.at = at;
  if (span.startMs !== undefined && span.endMs !== undefined) facts.latencyMs = Math.round(span.endMs - span.startMs);
  const model = stringAttribute(span, "gen_ai.response.model", "gen_ai.request.model", "llm.response.model", "llm.request.model");
  if (model !== undefined) facts.model = model;
  const usage = readReportedUsage(
    Object.fromEntries(
      [...span.attributes].flatMap(([key, attribute]) => (key.startsWith("gen_ai.usage.") || key.startsWith("llm.usage.") ? [[key, attribute.value]] : [])),
    ),
  );
  if (usage !== undefined) facts.usage = usage;
  const responseId = stringAttribute(span, "gen_ai.response.id");
  if (responseId !== undefined) facts.responseId = responseId;
  const stop = stringAttribute(span, "gen_ai.completion.0.finish_reason", "llm.completions.0.finish_reason", "gen_ai.response.finish_reasons");
  if (stop !== undefined) facts.stopReason = stop;
  return facts;
}

/** When the span's prompt was sent: the time of the messages it adds to the conversation. */
export function promptFacts(span: Span): CallFacts | undefined {
  const at = isoTime(span.startMs);
  return at === undefined ? undefined : { at };
}

/** The session id a span names (the conventions' `gen_ai.conversation.id`, OpenLLMetry's association properties). */
export function sessionIdOf(span: Span): string | undefined {
  return stringAttribute(
    span,
    "gen_ai.conversation.id",
    "session.id",
    "traceloop.association.properties.session_id",
    "traceloop.association.properties.sessionId",
  );
}

/** OpenLLMetry's `llm.request.functions.N.name / .description / .parameters` (`.input_schema` for Anthropic) → tools. */
export function spanTools(span: Span, scope: MessageScope): ToolDefinition[] | undefined {
  const raw: Record<string, unknown>[] = [];
  for (let index = 0; span.attributes.has(`llm.request.functions.${index}.name`); index += 1) {
    const field = (name: string) => span.attributes.get(`llm.request.functions.${index}.${name}`)?.value;
    const schema = field("parameters") ?? field("input_schema");
    const tool: Record<string, unknown> = { name: field("name") };
    if (typeof field("description") === "string") tool.description = field("description");
    if (schema !== undefined) tool.parameters = typeof schema === "string" ? parseJson(schema) : schema;
    raw.push({ type: "function", function: tool });
  }
  if (raw.length === 0) return undefined;
  const path = span.attributes.get("llm.request.functions.0.name")?.path ?? span.path;
  return readWithScope(scope, "openai-chat", path, (context) => readChatTools(raw, context, []));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
