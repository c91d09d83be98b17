// Text measured and cut in characters (code points): a cut never splits a
// surrogate pair, which would leave a lone surrogate (invalid UTF-8 on the wire).

/** True when `text` has more than `limit` code points; cheap for the common short case. */
export function exceedsCharacters(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  let count = 0;
  for (const _ of text) if (++count > limit) return true;
  return false;
}

/** The number of code points in `text`. */
export function countCharacters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** The first `count` code points of `text`. */
export function firstCharacters(text: string, count: number): string {
  let seen = 0;
  let units = 0;
  for (const character of text) {
    if (seen >= count) break;
    seen += 1;
    units += character.length;
  }
  return text.slice(0, units);
}
