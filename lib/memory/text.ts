import "server-only";

/** The first `size` characters (code points, never half a surrogate pair) on one line, with an ellipsis when cut. */
export function headOf(text: string, size: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const characters = Array.from(flat);
  return characters.length <= size ? flat : `${characters.slice(0, size - 1).join("")}…`;
}

/** A position range `[from, to)` as people read it: "12–27". */
export function positionsLabel(from: number, to: number): string {
  return to - from <= 1 ? `${from}` : `${from}–${to - 1}`;
}
