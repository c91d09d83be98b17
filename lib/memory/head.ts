import "server-only";

/** The first `size` characters (code points, never half a surrogate pair) on one line, with an ellipsis when cut. */
export function headOf(text: string, size: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const characters = Array.from(flat);
  return characters.length <= size ? flat : `${characters.slice(0, size - 1).join("")}…`;
}
