import { CONVERSATION_SUMMARY_PREFIX, isChainSummary, isConversationSummary, type Message } from "../messages";
import type { TiktokenCounter } from "../tokens/counter";

/** A message the budget kept, with its index in the history it received and its tokens. */
export interface KeptMessage {
  message: Message;
  index: number;
  tokens: number;
}

/**
 * E-B5: once only the last round is left to the rounds, the engine's own
 * summaries give way before the budget reports a stop. Conversation summaries
 * first (they stand for the oldest turns): each is shortened to its newest
 * lines that fit, or dropped when not even one does; then chain summaries,
 * oldest first, are dropped. Everything else stays.
 */
export function giveWaySummaries(
  kept: readonly KeptMessage[],
  total: number,
  budget: number,
  counter: TiktokenCounter,
): { kept: KeptMessage[]; total: number; shortened: number[]; dropped: number[] } {
  const next = [...kept];
  const shortened: number[] = [];
  const dropped: number[] = [];
  for (const isSummary of [isConversationSummary, isChainSummary]) {
    for (let position = 0; position < next.length && total > budget; position += 1) {
      const entry = next[position];
      if (!isSummary(entry.message)) continue;
      const room = budget - (total - entry.tokens);
      const shorter = isConversationSummary(entry.message) ? shortenSummary(entry.message, room, counter) : undefined;
      if (shorter) {
        next[position] = { ...entry, message: shorter.message, tokens: shorter.tokens };
        total += shorter.tokens - entry.tokens;
        shortened.push(entry.index);
        continue;
      }
      next.splice(position, 1);
      position -= 1;
      total -= entry.tokens;
      dropped.push(entry.index);
    }
  }
  return { kept: next, total, shortened, dropped };
}

/** A summary shortened to its header and newest lines, as one message of at most `room` tokens; none when no line fits. */
function shortenSummary(summary: Message, room: number, counter: TiktokenCounter): { message: Message; tokens: number } | undefined {
  const cacheKey = `${counter.encoding}:${room}`;
  const known = shortenings.get(summary)?.get(cacheKey);
  if (known !== undefined) return known ?? undefined;
  const result = fitLines(summary, room, counter);
  let cache = shortenings.get(summary);
  // A slider drag tries many budgets: keep the few latest.
  if (!cache || cache.size >= 8) {
    cache = new Map();
    shortenings.set(summary, cache);
  }
  // Re-runs at the same budget get the same message object: its count stays cached (E-T6).
  cache.set(cacheKey, result ?? null);
  return result;
}

/**
 * The most newest lines that fit. Lines are counted one by one to guess how
 * many fit, then the guess is counted exactly and moved a line at a time
 * (joined lines can count a token or so differently from their sum).
 */
function fitLines(summary: Message, room: number, counter: TiktokenCounter): { message: Message; tokens: number } | undefined {
  const overhead = counter.countMessageUncached({ ...summary, content: null });
  if (room <= overhead + counter.countText(CONVERSATION_SUMMARY_PREFIX)) return undefined;
  const content = summary.content ?? "";
  const lines = content
    .slice(content.startsWith(CONVERSATION_SUMMARY_PREFIX) ? CONVERSATION_SUMMARY_PREFIX.length : 0)
    .split("\n")
    .filter((line) => line.trim() !== "");
  const text = (kept: number) =>
    `${CONVERSATION_SUMMARY_PREFIX}\n… ${lines.length - kept} earlier lines left out to fit the token budget\n${lines.slice(lines.length - kept).join("\n")}`;
  const cost = (kept: number) => overhead + counter.countText(text(kept));
  let kept = 0;
  for (let spent = cost(0); kept < lines.length - 1; kept += 1) {
    spent += counter.countText(`\n${lines[lines.length - 1 - kept]}`);
    if (spent > room) break;
  }
  while (kept > 0 && cost(kept) > room) kept -= 1;
  while (kept < lines.length - 1 && cost(kept + 1) <= room) kept += 1;
  return kept >= 1 ? { message: { ...summary, content: text(kept) }, tokens: cost(kept) } : undefined;
}

const shortenings = new WeakMap<Message, Map<string, { message: Message; tokens: number } | null>>();
