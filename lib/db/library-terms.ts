/**
 * The words the conversation library searches (LB-1): what a conversation is
 * found by. Isomorphic and pure so the query and the index split text alike.
 */

/** Longer words are cut to this many characters: a prefix search still finds them, and a pasted blob cannot bloat the index. */
export const MAX_TERM_LENGTH = 48;

// A date as ISO writes it stays one word ("2026-11-29"), so "2026-11" finds a month; everything else splits at what is not a letter or digit.
const WORD = /\d{4}-\d{2}(?:-\d{2})?|[\p{L}\p{N}]+/gu;

/** The distinct lower-case words of `text`, in order of first appearance. */
export function termsOf(text: string): string[] {
  const terms = new Set<string>();
  for (const [word] of text.normalize("NFKC").toLowerCase().matchAll(WORD)) terms.add(firstCodePoints(word, MAX_TERM_LENGTH));
  return [...terms];
}

/** The first `count` code points of `text`, read no further than they reach (a pasted 1M-character word is not split into 1M strings). */
function firstCodePoints(text: string, count: number): string {
  if (text.length <= count) return text;
  let end = 0;
  for (let points = 0; points < count && end < text.length; points += 1) end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  return text.slice(0, end);
}

/** The UTC day of an ISO time or date, as the index holds it. */
export function dayTermOf(time: Date): string {
  return time.toISOString().slice(0, 10);
}

/**
 * The first string after every string that starts with `prefix`, in code
 * point (UTF-8 byte) order: `[prefix, upper)` is the prefix as a range.
 */
export function prefixUpperBound(prefix: string): string {
  const points = Array.from(prefix);
  const last = points.pop()!.codePointAt(0)!;
  // Skipping the surrogate block keeps the bound a well-formed string.
  const next = last === 0xd7ff ? 0xe000 : last + 1;
  return points.join("") + String.fromCodePoint(next);
}
