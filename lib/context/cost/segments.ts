import { hashPair, sortKeys } from "../hash";
import type { CacheControl, Message, ToolDefinition } from "../messages";
import type { CacheSegment, CacheTtl } from "./types";

/** How `requestSegments` counts and marks a request. */
export interface SegmentOptions {
  /** A message's tokens; `key` names its content, for callers that count each content once. */
  countMessage: (message: Message, key: string) => number;
  countTools: (tools: readonly ToolDefinition[]) => number;
  /**
   * For requests whose cache marks were not kept (an agent's own log): the
   * request is taken as marked at the end of its system prompt and at its
   * last message, with this TTL, as coding agents mark them (CC-6).
   */
  assumeBreakpoints?: CacheTtl;
}

function digest(text: string): string {
  return hashPair(text, 1, 2);
}

function withoutMarks<T extends object>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, field) => (key === "cache_control" || key === "cacheControl" ? undefined : field))) as T;
}

function parsedArguments(text: string): unknown {
  try {
    return sortKeys(JSON.parse(text));
  } catch {
    return text.trim();
  }
}

/** The same content however it was spelled: JSON arguments as values, keys sorted, text trimmed (CC-9: re-serialised JSON). */
function looseMessageKey(message: Message): string {
  const plain = withoutMarks(message);
  return digest(
    JSON.stringify([
      plain.role,
      (plain.content ?? "").trim(),
      sortKeys(plain.parts ?? []),
      (plain.tool_calls ?? []).map((call) => [call.id, call.function.name, parsedArguments(call.function.arguments)]),
      plain.tool_call_id ?? null,
      plain.name ?? null,
    ]),
  );
}

function ttlOf(mark: CacheControl | undefined): CacheTtl | undefined {
  return mark === undefined ? undefined : (mark.ttl ?? "5m");
}

/** A message's breakpoint: its own mark or its parts' (the last one wins; granularity is the message, CC6). */
function messageBreakpoint(message: Message): CacheTtl | undefined {
  let ttl = ttlOf(message.cache_control);
  for (const part of message.parts ?? []) if ("cacheControl" in part && part.cacheControl !== undefined) ttl = ttlOf(part.cacheControl);
  return ttl;
}

function toolSegment(tool: ToolDefinition, index: number, options: SegmentOptions): CacheSegment {
  const plain = withoutMarks(tool);
  const breakpoint = ttlOf(tool.cache_control);
  return {
    section: "tools",
    index,
    key: digest(JSON.stringify(plain)),
    looseKey: digest(JSON.stringify(sortKeys(plain))),
    tokens: options.countTools([tool]),
    label: tool.function.name,
    ...(breakpoint === undefined ? {} : { breakpoint }),
  };
}

/** Messages are values (E-M1): a message's keys are computed once per object. */
const messageKeys = new WeakMap<Message, { key: string; looseKey: string }>();

function keysOf(message: Message): { key: string; looseKey: string } {
  let keys = messageKeys.get(message);
  if (keys === undefined) {
    keys = { key: digest(JSON.stringify(withoutMarks(message))), looseKey: looseMessageKey(message) };
    messageKeys.set(message, keys);
  }
  return keys;
}

function messageSegment(message: Message, index: number, options: SegmentOptions): CacheSegment {
  const breakpoint = messageBreakpoint(message);
  const system = message.role === "system";
  const { key, looseKey } = keysOf(message);
  return {
    section: system ? "system" : "messages",
    index,
    key,
    looseKey,
    tokens: options.countMessage(message, key),
    label: message.role,
    ...(breakpoint === undefined ? {} : { breakpoint }),
    ...(system ? { text: message.content ?? "" } : {}),
  };
}

/**
 * A request as the cache model reads it (CC-6): its tool definitions, then its
 * messages, one segment each, with their tokens and cache marks. Providers
 * build the cached prefix in that order (Anthropic: tools, system, messages).
 * @example requestSegments(messages, tools, { countMessage: (m) => counter.countMessage(m), countTools: (t) => counter.countTools(t) })
 */
export function requestSegments(messages: readonly Message[], tools: readonly ToolDefinition[], options: SegmentOptions): CacheSegment[] {
  const segments = [
    ...tools.map((tool, index) => toolSegment(tool, index, options)),
    ...messages.map((message, index) => messageSegment(message, index, options)),
  ];
  const assumed = options.assumeBreakpoints;
  if (assumed !== undefined && !segments.some((segment) => segment.breakpoint !== undefined)) {
    const lastSystem = segments.findLastIndex((segment) => segment.section !== "messages");
    for (const at of [lastSystem, segments.length - 1]) if (at >= 0) segments[at] = { ...segments[at], breakpoint: assumed };
  }
  return segments;
}

/**
 * What the provider counted beyond the segments (an agent's system prompt and
 * tools its log does not keep) as one unchanging segment before them, marked
 * as a breakpoint when the request has any (CC-6).
 */
export function withUnseenPrefix(segments: readonly CacheSegment[], tokens: number): CacheSegment[] {
  if (tokens <= 0) return [...segments];
  const marked = segments.find((segment) => segment.breakpoint !== undefined)?.breakpoint;
  const unseen: CacheSegment = {
    section: "unseen",
    index: 0,
    key: "unseen",
    looseKey: "unseen",
    tokens,
    label: "not kept by the source",
    ...(marked === undefined ? {} : { breakpoint: marked }),
  };
  return [unseen, ...segments];
}
