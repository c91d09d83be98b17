/**
 * OpenTelemetry GenAI spans, in OTLP/JSON, Tempo, Jaeger or as bare
 * attributes: `gen_ai.input.messages` / `gen_ai.output.messages` or the
 * older indexed `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` OpenLLMetry
 * writes. Each chat span sends the conversation so far and gets an answer:
 * the spans of a trace, in time order, are one conversation, each adding the
 * messages it sent and its answer, with the span's start, end, model and
 * usage as facts. A span whose prompt does not continue any conversation of
 * its trace starts one of its own (a subagent's, another chain's).
 */
import type { Message, ToolDefinition } from "@/lib/context/messages";
import type { MessageScope } from "../../issues";
import type { DocumentImporter, ImportContext, ImportPlace, LinesImporter } from "../../registry";
import type { ConversationDraft } from "../../requests";
import { readAnthropicWire } from "../anthropic-wire";
import { readChatWire } from "../chat-wire";
import { assembleCalls, type CallThread, type LoggedCall } from "../threads";
import { answerFacts, promptFacts, sessionIdOf, spanTools } from "./facts";
import { hasIndexedMessages } from "./entries";
import { indexedMessages } from "./indexed";
import { collectSpans, isSpanExport, type Span } from "./spans";
import { structuredMessages } from "./structured";

export const otelImporter: DocumentImporter = {
  format: "otel",
  detect: isSpanExport,
  convert(value, place, context) {
    return convertSpans(collectSpans(value, place.path), place, context);
  },
};

/** The OpenTelemetry Collector's file exporter: one export request (`{resourceSpans}`) a line. */
export const otelLinesImporter: LinesImporter = {
  format: "otel",
  detectLines(values) {
    return values.length > 0 && values.every(isSpanExport);
  },
  convertLines(records, context) {
    return convertSpans(
      records.flatMap((record, index) => collectSpans(record.value, [index])),
      { path: [] },
      context,
    );
  },
};

function convertSpans(all: readonly Span[], place: ImportPlace, context: ImportContext): ConversationDraft[] {
  const spans = all.filter(isChatSpan);
  if (spans.length === 0) {
    const scope = context.scope(place.path, place.conversationIndex);
    scope.failAt(
      place.path,
      "no span has gen_ai.input.messages or gen_ai.prompt.N.* / gen_ai.completion.N.* attributes: there is no conversation in these spans",
    );
    return [{ format: "otel", messages: [], warnings: scope.warnings }];
  }
  const byTrace = new Map<string, Span[]>();
  for (const span of spans) byTrace.set(span.traceId, [...(byTrace.get(span.traceId) ?? []), span]);
  const drafts = [...byTrace.values()].flatMap((traceSpans, index) => convertTrace(traceSpans, context, byTrace.size > 1 ? index : place.conversationIndex));
  const skipped = all.filter((span) => !isChatSpan(span));
  if (skipped.length > 0) {
    const names = [...new Set(skipped.map((span) => span.name ?? "unnamed"))];
    const shown = names.length > 5 ? `${names.slice(0, 5).join(", ")}, …` : names.join(", ");
    drafts[0].warnings.push({
      code: "entry-skipped",
      message: `skipped ${skipped.length} span${skipped.length === 1 ? " that holds" : "s that hold"} no chat messages (${shown})`,
    });
  }
  return drafts;
}

function isChatSpan(span: Span): boolean {
  return span.attributes.has("gen_ai.input.messages") || span.attributes.has("gen_ai.output.messages") || hasIndexedMessages(span);
}

/** A chat span read as a logged call. */
interface SpanCall extends LoggedCall {
  span: Span;
  tools?: ToolDefinition[];
}

function convertTrace(spans: readonly Span[], context: ImportContext, conversationIndex?: number): ConversationDraft[] {
  // Spans without times keep their order in the export.
  const ordered = [...spans].sort((left, right) => (left.startMs ?? 0) - (right.startMs ?? 0));
  const calls = ordered.map((span): SpanCall => {
    const scope = context.scope(span.path, conversationIndex);
    const { input, output } = readSpan(span, scope);
    const call: SpanCall = {
      span,
      input,
      output,
      warnings: scope.warnings,
      answer: answerFacts(span),
      label: `span "${span.name ?? span.spanId ?? "?"}"`,
      path: span.path,
    };
    const sent = promptFacts(span);
    if (sent !== undefined) call.sent = sent;
    const tools = spanTools(span, scope);
    if (tools !== undefined) call.tools = tools;
    return call;
  });
  return assembleCalls(calls, "chat spans").map(toDraft);
}

/** The span's prompt and answer in canonical messages; the answer's warnings are indexed after the prompt's messages. */
function readSpan(span: Span, scope: MessageScope): { input: Message[]; output: Message[] } {
  const read = (wire: Parameters<typeof readChatWire>[1]) => readChatWire(scope, wire);
  let input: Message[];
  let readOutput: () => Message[];
  if (span.attributes.has("gen_ai.input.messages") || span.attributes.has("gen_ai.output.messages")) {
    const wire = structuredMessages(span, scope);
    input = read(wire.input);
    readOutput = () => read(wire.output);
  } else {
    const wire = indexedMessages(span);
    if (wire.dialect === "anthropic") {
      input = readAnthropicWire(scope, wire.input).messages;
      readOutput = () => readAnthropicWire(scope, wire.output).messages;
    } else {
      input = read(wire.input);
      readOutput = () => read(wire.output);
    }
    const output = readWithOffset(scope, input.length, readOutput);
    const all = [...input, ...output];
    // Indexed like the messages, so a span that repeats the call does not warn about it again.
    for (const { id, path } of wire.generatedIds)
      scope.warn("call-id-generated", "a tool call had no id (a legacy function_call): gave it one made from its name and arguments", {
        messageIndex: all.findIndex((message) => message.tool_calls?.some((call) => call.id === id)),
        path,
      });
    for (const { id, path } of wire.pairedByPosition)
      scope.warn("call-id-generated", "a function result named no call: paired with the oldest unanswered call, by position", {
        messageIndex: all.findIndex((message) => message.role === "tool" && message.tool_call_id === id),
        path,
      });
    return { input, output };
  }
  return { input, output: readWithOffset(scope, input.length, readOutput) };
}

/** Reads the answer, its warnings indexed after the prompt's `offset` messages. */
function readWithOffset(scope: MessageScope, offset: number, read: () => Message[]): Message[] {
  const before = scope.warnings.length;
  const output = read();
  for (const warning of scope.warnings.slice(before)) if (warning.messageIndex !== undefined) warning.messageIndex += offset;
  return output;
}

function toDraft(thread: CallThread<SpanCall>): ConversationDraft {
  const first = thread.calls[0].span;
  const source: Record<string, unknown> = { traceId: first.traceId, spans: thread.calls.length };
  const model = first.attributes.get("gen_ai.request.model")?.value ?? first.attributes.get("llm.request.model")?.value;
  if (model !== undefined) source.model = model;
  if (first.service !== undefined) source.service = first.service;
  const draft: ConversationDraft = { format: "otel", messages: thread.messages, warnings: thread.warnings, facts: thread.facts, source };
  // The last span's tools are the ones the conversation ended with.
  const tools = thread.calls.map((call) => call.tools).findLast((found) => found !== undefined);
  if (tools !== undefined) draft.tools = tools;
  const sessionId = thread.calls.map((call) => sessionIdOf(call.span)).find((id) => id !== undefined);
  if (sessionId !== undefined) draft.session = { sessionId };
  return draft;
}
