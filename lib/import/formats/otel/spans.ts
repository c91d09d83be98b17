/**
 * Spans out of every container they are exported in: OTLP/JSON
 * (`resourceSpans`, Tempo's `batches`, `{trace: {resourceSpans}}`, the older
 * `instrumentationLibrarySpans`, oteltest's `{trace_requests: [{pbreq}]}`),
 * Jaeger's `{data: [{traceID, spans}]}`, a
 * span or an array of spans (OTLP, Python's `span.to_json()`), or bare
 * attributes (an object of them, or an OTLP `[{key, value}]` list).
 */
import { isRecord, type JsonPath } from "../../issues";

export interface Attribute {
  value: unknown;
  path: JsonPath;
}

export interface Span {
  path: JsonPath;
  traceId: string;
  spanId?: string;
  name?: string;
  /** Epoch milliseconds. */
  startMs?: number;
  endMs?: number;
  attributes: Map<string, Attribute>;
  /** The resource's `service.name`, where the export says it. */
  service?: string;
}

const MESSAGE_KEY = /^(gen_ai\.(prompt|completion)\.\d+\.|llm\.(prompts|completions)\.\d+\.|gen_ai\.(input|output)\.messages$)/;

/** True when a key holds (part of) a message: indexed prompt and completion attributes, or the structured messages. */
export function isMessageKey(key: string): boolean {
  return MESSAGE_KEY.test(key);
}

function keysOf(attributes: unknown): string[] {
  if (Array.isArray(attributes)) return attributes.flatMap((attribute) => (isRecord(attribute) && typeof attribute.key === "string" ? [attribute.key] : []));
  return isRecord(attributes) ? Object.keys(attributes) : [];
}

function isKeyValueList(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every((entry) => isRecord(entry) && typeof entry.key === "string" && "value" in entry);
}

function looksLikeSpan(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && (Array.isArray(value.attributes) || isRecord(value.attributes) || Array.isArray(value.tags));
}

function spanHasMessages(value: Record<string, unknown>): boolean {
  return keysOf(value.attributes ?? value.tags).some(isMessageKey);
}

/** True when `value` is one of the containers above and, for bare spans or attributes, holds a message. */
export function isSpanExport(value: unknown): boolean {
  if (isRecord(value)) {
    if (Array.isArray(value.resourceSpans) || (isRecord(value.trace) && Array.isArray(value.trace.resourceSpans))) return true;
    if (Array.isArray(value.trace_requests) && value.trace_requests.some((request) => isRecord(request) && isRecord(request.pbreq))) return true;
    if (
      Array.isArray(value.batches) &&
      value.batches.some((batch) => isRecord(batch) && (Array.isArray(batch.scopeSpans) || Array.isArray(batch.instrumentationLibrarySpans)))
    )
      return true;
    if (Array.isArray(value.data) && value.data.some((trace) => isRecord(trace) && Array.isArray(trace.spans) && "traceID" in trace)) return true;
    if (looksLikeSpan(value)) return spanHasMessages(value);
    return Object.keys(value).some(isMessageKey);
  }
  if (isKeyValueList(value)) return keysOf(value).some(isMessageKey);
  return Array.isArray(value) && value.length > 0 && value.every(looksLikeSpan) && value.some(spanHasMessages);
}

/** Every span of the export, with its path in the input. */
export function collectSpans(value: unknown, path: JsonPath): Span[] {
  if (isRecord(value) && isRecord(value.trace) && Array.isArray(value.trace.resourceSpans))
    return resourceSpans(value.trace.resourceSpans, [...path, "trace", "resourceSpans"]);
  if (isRecord(value) && Array.isArray(value.resourceSpans)) return resourceSpans(value.resourceSpans, [...path, "resourceSpans"]);
  if (isRecord(value) && Array.isArray(value.trace_requests))
    return value.trace_requests.flatMap((request: unknown, index) =>
      isRecord(request) && isRecord(request.pbreq) ? collectSpans(request.pbreq, [...path, "trace_requests", index, "pbreq"]) : [],
    );
  if (isRecord(value) && Array.isArray(value.batches)) return resourceSpans(value.batches, [...path, "batches"]);
  if (isRecord(value) && Array.isArray(value.data)) return jaegerSpans(value.data, [...path, "data"]);
  if (isKeyValueList(value)) return [readSpan({ attributes: value }, path, true)];
  if (Array.isArray(value)) return value.map((span, index) => readSpan(span, [...path, index]));
  if (looksLikeSpan(value)) return [readSpan(value, path)];
  return [readSpan({ attributes: value }, path, true)];
}

function resourceSpans(resources: readonly unknown[], path: JsonPath): Span[] {
  return resources.flatMap((resource, resourceIndex) => {
    if (!isRecord(resource)) return [];
    const service = serviceName(resource.resource);
    const scopesKey = Array.isArray(resource.scopeSpans) ? "scopeSpans" : "instrumentationLibrarySpans";
    const scopes = Array.isArray(resource[scopesKey]) ? (resource[scopesKey] as unknown[]) : [];
    return scopes.flatMap((scope, scopeIndex) =>
      (isRecord(scope) && Array.isArray(scope.spans) ? scope.spans : []).map((span: unknown, spanIndex) => ({
        ...readSpan(span, [...path, resourceIndex, scopesKey, scopeIndex, "spans", spanIndex]),
        ...(service === undefined ? {} : { service }),
      })),
    );
  });
}

function serviceName(resource: unknown): string | undefined {
  if (!isRecord(resource)) return undefined;
  const found = readAttributes(resource.attributes, []).get("service.name")?.value;
  return typeof found === "string" ? found : undefined;
}

/** Jaeger's JSON: spans keep `tags`, times in microseconds, and the process (service) beside the trace. */
function jaegerSpans(traces: readonly unknown[], path: JsonPath): Span[] {
  return traces.flatMap((trace, traceIndex) => {
    if (!isRecord(trace) || !Array.isArray(trace.spans)) return [];
    const processes = isRecord(trace.processes) ? trace.processes : {};
    return trace.spans.map((raw: unknown, spanIndex) => {
      const span = readSpan(raw, [...path, traceIndex, "spans", spanIndex]);
      const process = isRecord(raw) && typeof raw.processID === "string" ? processes[raw.processID] : undefined;
      if (isRecord(process) && typeof process.serviceName === "string") span.service = process.serviceName;
      return span;
    });
  });
}

/** OTLP attribute values (`{stringValue}`, `{intValue: "5"}`, `{arrayValue: {values}}`) → plain values. */
function plain(value: unknown): unknown {
  if (!isRecord(value)) return value;
  for (const key of ["stringValue", "string_value", "boolValue", "bool_value", "doubleValue", "double_value"]) if (key in value) return value[key];
  for (const key of ["intValue", "int_value"]) if (key in value) return Number(value[key]);
  const array = value.arrayValue ?? value.array_value;
  if (isRecord(array)) return (Array.isArray(array.values) ? array.values : []).map(plain);
  return value;
}

/** The attributes at `path`: an OTLP `[{key, value}]` list (or Jaeger's tags) or an object of them. */
function readAttributes(raw: unknown, path: JsonPath): Map<string, Attribute> {
  const attributes = new Map<string, Attribute>();
  if (Array.isArray(raw)) {
    raw.forEach((attribute: unknown, index) => {
      if (isRecord(attribute) && typeof attribute.key === "string")
        attributes.set(attribute.key, { value: plain(attribute.value), path: [...path, index, "value"] });
    });
  } else if (isRecord(raw)) {
    for (const [name, value] of Object.entries(raw)) attributes.set(name, { value, path: [...path, name] });
  }
  return attributes;
}

function readSpan(raw: unknown, path: JsonPath, bare = false): Span {
  const span = isRecord(raw) ? raw : {};
  const context = isRecord(span.context) ? span.context : {};
  const attributes = bare
    ? readAttributes(span.attributes, path)
    : Array.isArray(span.tags)
      ? readAttributes(span.tags, [...path, "tags"])
      : readAttributes(span.attributes, [...path, "attributes"]);
  const text = (...values: unknown[]) => values.find((value): value is string => typeof value === "string" && value !== "");
  const startMs = epochMs(span.startTimeUnixNano ?? span.start_time_unix_nano ?? span.start_time ?? span.startTime);
  // Jaeger gives a start and a duration, both in microseconds.
  const duration = typeof span.duration === "number" && Array.isArray(span.tags) ? span.duration / 1000 : undefined;
  const endMs =
    epochMs(span.endTimeUnixNano ?? span.end_time_unix_nano ?? span.end_time ?? span.endTime) ??
    (startMs !== undefined && duration !== undefined ? startMs + duration : undefined);
  const result: Span = {
    path,
    traceId: text(span.traceId, span.trace_id, span.traceID, context.trace_id) ?? String(span.traceId ?? span.trace_id ?? ""),
    attributes,
  };
  const spanId = text(span.spanId, span.span_id, span.spanID, context.span_id);
  if (spanId !== undefined) result.spanId = spanId;
  const name = text(span.name, span.operationName);
  if (name !== undefined) result.name = name;
  if (startMs !== undefined) result.startMs = startMs;
  if (endMs !== undefined) result.endMs = endMs;
  return result;
}

/** A time as epoch milliseconds, told apart by size: nanoseconds (OTLP), microseconds (Jaeger), milliseconds, seconds, or an ISO string. */
export function epochMs(value: unknown): number | undefined {
  // Nanoseconds since 1970 need more than a double's 53 bits: read the digits exactly.
  if (typeof value === "string" && /^\d{18,}$/.test(value)) {
    const nanoseconds = BigInt(value);
    return Number(nanoseconds / 1_000_000n) + Number(nanoseconds % 1_000_000n) / 1e6;
  }
  if (typeof value === "string" && /^\d+$/.test(value)) return epochMs(Number(value));
  if (typeof value === "number" && Number.isFinite(value) && value > 0) {
    if (value >= 1e17) return value / 1e6;
    if (value >= 1e14) return value / 1000;
    return value >= 1e11 ? value : value * 1000;
  }
  if (typeof value !== "string") return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}
