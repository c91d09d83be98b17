import { promptTokensOfUsage } from "@/lib/context/light";
import { callFactsOf, type CallFacts } from "@/lib/formats";
import type { MessageRecord } from "@/lib/db";

/** What a row of the conversation shows of its call: the time, the pause before it, and the model and usage where reported. */
export interface RowFacts extends CallFacts {
  /** Milliseconds since the previous message with a time, when this one has one. */
  gapMs?: number;
  /** What of the stored row could not be read and is left out (IN-6). */
  damaged?: readonly string[];
}

/** A pause worth a line of its own between two messages. */
export const NOTABLE_GAP_MS = 60_000;

/**
 * Each shown message's facts (F-SF2): `positions[i]` is message i's stored
 * position. Messages the proxy or the chat recorder stored carry the time they
 * were recorded; an import's carry the source's time or none.
 */
export function rowFactsOf(records: readonly MessageRecord[], positions: readonly number[]): (RowFacts | undefined)[] {
  let previous: number | undefined;
  return positions.map((position) => {
    const record = records[position];
    if (record === undefined) return undefined;
    let facts: RowFacts | undefined = callFactsOf(record.metadata) ?? (record.metadata?.recorder ? { at: record.createdAt } : undefined);
    if (record.damaged) facts = { ...facts, damaged: record.damaged };
    if (facts?.at === undefined) return facts;
    const time = Date.parse(facts.at);
    if (previous !== undefined && Number.isFinite(time)) facts.gapMs = Math.max(0, time - previous);
    if (Number.isFinite(time)) previous = time;
    return facts;
  });
}

/** "7 min later", "2 h 5 min later", "3 days later". */
export function gapText(milliseconds: number): string {
  const minutes = Math.round(milliseconds / 60_000);
  if (minutes < 60) return `${Math.max(1, minutes)} min later`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h later` : `${hours} h ${minutes % 60} min later`;
  return `${Math.round(hours / 24)} days later`;
}

const number = (value: number) => value.toLocaleString("en");

/** One call's reported usage in a line: what was read from and written to the cache, new input, output. */
export function usageText(facts: CallFacts): string | null {
  const usage = facts.usage;
  if (usage === undefined) return null;
  const parts = [`${number(promptTokensOfUsage(usage))} in`];
  if (usage.cacheRead > 0) parts.push(`${number(usage.cacheRead)} cached`);
  if (usage.cacheWrite5m > 0) parts.push(`${number(usage.cacheWrite5m)} written (5 min)`);
  if (usage.cacheWrite1h > 0) parts.push(`${number(usage.cacheWrite1h)} written (1 h)`);
  parts.push(`${number(usage.output)} out${usage.reasoning > 0 ? ` (${number(usage.reasoning)} reasoning)` : ""}`);
  return parts.join(" · ");
}
