import { prefixTokens } from "./cache-model";
import { TTL_SECONDS, type CacheBreak, type CacheCall, type CachePosition, type CacheSegment, type CacheTtl } from "./types";

/** What `explainCacheBreak` weighs: two consecutive calls of a session and what the cache held between them. */
export interface CacheBreakInput {
  previous: CacheCall;
  current: CacheCall;
  /** Tokens the previous call left cached (reported: read plus written; predicted: `cachedAfter`). */
  previousCached: number;
  /** The shortest TTL of what the previous call left cached. */
  previousTtl: CacheTtl | null;
  /** Tokens this call read from the cache. */
  read: number;
}

/** "7 min 52 s", "1 h 3 min", "40 s". */
export function formatGap(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

const TTL_WORDS: Readonly<Record<CacheTtl, string>> = { "5m": "5-minute", "1h": "1-hour", "24h": "24-hour" };

function snippet(text: string, from: number): string {
  const piece = text.slice(from, from + 60).replace(/\s+/g, " ");
  return piece === "" ? "(nothing)" : `"${piece}${text.length > from + 60 ? "…" : ""}"`;
}

/** A short diff of two system prompts: where they part and what each says there. */
export function systemDiff(before: string, after: string): string {
  let common = 0;
  while (common < before.length && common < after.length && before[common] === after[common]) common += 1;
  const from = Math.max(0, common - 20);
  return `changed at character ${common}: was ${snippet(before, from)}, now ${snippet(after, from)}`;
}

function toolNames(segments: readonly CacheSegment[]): CacheSegment[] {
  return segments.filter((segment) => segment.section === "tools");
}

/** CC9: the tool list changed (added, removed, edited) or only its order did. */
function toolsBreak(previous: readonly CacheSegment[], current: readonly CacheSegment[], position: CachePosition): CacheBreak {
  const before = toolNames(previous);
  const after = toolNames(current);
  const sorted = (tools: CacheSegment[]) => tools.map((tool) => tool.looseKey).sort();
  if (before.length === after.length && sorted(before).join() === sorted(after).join()) {
    return {
      reason: "tools-reordered",
      detail: `the same tools in another order: ${before.map((tool) => tool.label).join(", ")} became ${after.map((tool) => tool.label).join(", ")}`,
      position,
    };
  }
  const names = (tools: CacheSegment[]) => new Set(tools.map((tool) => tool.label));
  const added = after.filter((tool) => !names(before).has(tool.label)).map((tool) => tool.label);
  const removed = before.filter((tool) => !names(after).has(tool.label)).map((tool) => tool.label);
  const keys = new Set(before.map((tool) => tool.looseKey));
  const edited = after.filter((tool) => names(before).has(tool.label) && !keys.has(tool.looseKey)).map((tool) => tool.label);
  const parts = [
    added.length > 0 ? `added ${added.join(", ")}` : "",
    removed.length > 0 ? `removed ${removed.join(", ")}` : "",
    edited.length > 0 ? `changed the definition of ${edited.join(", ")}` : "",
  ].filter((part) => part !== "");
  return { reason: "tools-changed", detail: parts.length > 0 ? parts.join("; ") : "the tool definitions changed", position };
}

/** CC9: an earlier message no longer reads the same: compacted, removed, edited or re-serialised. */
function messageBreak(previous: readonly CacheSegment[], current: readonly CacheSegment[], at: number, call: CacheCall, position: CachePosition): CacheBreak {
  const before = previous[at];
  const after = current[at];
  const where = `message ${position.index}`;
  if (call.compacted)
    return { reason: "message-edited", detail: `the agent compacted its history: from ${where} on, a summary replaced what the cache held`, position };
  if (after === undefined) return { reason: "message-edited", detail: `${where} and the messages after it were removed`, position };
  if (before !== undefined && before.looseKey === after.looseKey) {
    return {
      reason: "message-edited",
      detail: `${where} (${after.label}) was re-serialised: the same content in other bytes (JSON key order or spacing)`,
      position,
    };
  }
  if (before !== undefined && current.slice(at + 1).every((segment) => segment.key !== before.key)) {
    const removed = previous.slice(at).findIndex((segment) => segment.key === after.key);
    if (removed > 0) return { reason: "message-edited", detail: `${removed} message${removed === 1 ? "" : "s"} removed at ${where}`, position };
  }
  return { reason: "message-edited", detail: `${where} (${after.label}) differs from what the previous call sent`, position };
}

/** The first segment where two requests differ, or -1 when the previous one is a prefix of the current. */
function firstDifference(previous: readonly CacheSegment[], current: readonly CacheSegment[]): number {
  const length = Math.min(previous.length, current.length);
  for (let index = 0; index < length; index += 1) if (previous[index].key !== current[index].key) return index;
  return previous.length > current.length ? length : -1;
}

function positionOf(segments: readonly CacheSegment[], ends: readonly number[], index: number): CachePosition {
  const segment = segments[Math.min(index, segments.length - 1)];
  return {
    section: segment?.section ?? "messages",
    index: index < segments.length ? (segment?.index ?? 0) : (segment?.index ?? -1) + 1,
    tokens: index === 0 ? 0 : (ends[index - 1] ?? ends.at(-1) ?? 0),
  };
}

/** CC9: the cacheable prefix of a request: up to its last mark, or all of it for an automatic cache. */
function cacheablePrefix(call: CacheCall, ends: readonly number[]): number {
  if (call.rules.mode !== "breakpoints") return ends.at(-1) ?? 0;
  const last = call.segments.findLastIndex((segment) => segment.breakpoint !== undefined);
  return last < 0 ? 0 : ends[last];
}

/** CC9: the previous call's last mark is no longer within reach of this call's marks. */
function movedBreakpoint(previous: CacheCall, current: CacheCall): number | null {
  if (current.rules.mode !== "breakpoints") return null;
  const last = previous.segments.findLastIndex((segment) => segment.breakpoint !== undefined);
  if (last < 0) return null;
  const lookback = current.rules.lookback ?? current.segments.length;
  const reached = current.segments.some((segment, index) => segment.breakpoint !== undefined && index >= last && index - last <= lookback);
  return reached ? null : last;
}

/**
 * Why a call read less from the cache than the previous call left in it
 * (CC-9), or null when it did not. In order: the idle gap exceeded the TTL,
 * the request differs inside the cached prefix (tools, system prompt,
 * messages), the prefix is under the minimum, the breakpoint moved out of
 * reach; else the cause lies outside what the requests show.
 * @example explainCacheBreak({ previous, current, previousCached: 20_000, previousTtl: "5m", read: 0 })
 */
export function explainCacheBreak(input: CacheBreakInput): CacheBreak | null {
  const { previous, current, previousCached, previousTtl, read } = input;
  if (previousCached <= 0 || read >= previousCached) return null;
  if (previous.at !== null && current.at !== null && previousTtl !== null) {
    const gap = current.at - previous.at;
    if (gap > TTL_SECONDS[previousTtl] * 1000) {
      return { reason: "idle-gap", detail: `${formatGap(gap)} idle: longer than the ${TTL_WORDS[previousTtl]} cache lives`, position: null };
    }
  }
  const ends = prefixTokens(current.segments);
  const difference = firstDifference(previous.segments, current.segments);
  if (difference >= 0) {
    const position = positionOf(current.segments, ends, difference);
    if (position.tokens < previousCached) {
      const section = current.segments[difference]?.section ?? previous.segments[difference]?.section;
      if (section === "tools") return toolsBreak(previous.segments, current.segments, position);
      if (section === "system") {
        const before = previous.segments[difference]?.text ?? "";
        const after = current.segments[difference]?.text ?? "";
        return { reason: "system-changed", detail: `the system prompt ${systemDiff(before, after)}`, position };
      }
      return messageBreak(previous.segments, current.segments, difference, current, position);
    }
  }
  const prefix = cacheablePrefix(current, ends);
  if (prefix < current.rules.minimumTokens) {
    return {
      reason: "under-minimum",
      detail: `the cacheable prefix is ${prefix.toLocaleString("en-US")} tokens; the model caches from ${current.rules.minimumTokens.toLocaleString("en-US")}`,
      position: null,
    };
  }
  const moved = movedBreakpoint(previous, current);
  if (moved !== null) {
    return {
      reason: "breakpoint-moved",
      detail: "no cache mark of this call reaches back to where the previous call's last mark was",
      position: positionOf(current.segments, ends, moved + 1),
    };
  }
  return {
    reason: "unexplained",
    detail:
      "the request as recorded keeps the cached prefix and the cache was live: the change lies in what the record does not keep, or the provider evicted the entry",
    position: null,
  };
}
