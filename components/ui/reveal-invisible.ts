/**
 * Characters that change how the text around them displays without showing
 * themselves: bidi overrides, embeddings, isolates and marks (U+202E turns
 * `gnp.exe` into what reads as `exe.png`), zero-width characters, the BOM,
 * soft hyphens and C0/C1 controls other than tab and newline.
 */
// eslint-disable-next-line no-control-regex
const INVISIBLE =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]/g;

const NAMES: Readonly<Record<number, string>> = {
  0x200b: "ZERO WIDTH SPACE",
  0x200c: "ZERO WIDTH NON-JOINER",
  0x200d: "ZERO WIDTH JOINER",
  0x200e: "LEFT-TO-RIGHT MARK",
  0x200f: "RIGHT-TO-LEFT MARK",
  0x202a: "LEFT-TO-RIGHT EMBEDDING",
  0x202b: "RIGHT-TO-LEFT EMBEDDING",
  0x202c: "POP DIRECTIONAL FORMATTING",
  0x202d: "LEFT-TO-RIGHT OVERRIDE",
  0x202e: "RIGHT-TO-LEFT OVERRIDE",
  0x2066: "LEFT-TO-RIGHT ISOLATE",
  0x2067: "RIGHT-TO-LEFT ISOLATE",
  0x2068: "FIRST STRONG ISOLATE",
  0x2069: "POP DIRECTIONAL ISOLATE",
  0x061c: "ARABIC LETTER MARK",
  0x00ad: "SOFT HYPHEN",
  0xfeff: "ZERO WIDTH NO-BREAK SPACE (BOM)",
  0x2060: "WORD JOINER",
};

/** One run of text: shown as it is, or an invisible character shown as its code point. */
export type TextSegment = { kind: "text"; text: string } | { kind: "invisible"; code: string; name: string };

/** `U+202E` for a character. */
export function codePointLabel(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Whether a text holds any character `revealInvisible` marks. */
export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text);
}

const EMOJI_BEFORE = /\p{Extended_Pictographic}\uFE0F?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/** A zero-width joiner or variation selector inside an emoji sequence (👨‍👩‍👧, ❤️) is part of the picture, not a disguise. */
function isEmojiGlue(text: string, index: number): boolean {
  const character = text[index];
  if (character === "\uFE0F") return EMOJI_BEFORE.test(text.slice(Math.max(0, index - 2), index));
  if (character !== "\u200D") return false;
  return EMOJI_BEFORE.test(text.slice(Math.max(0, index - 3), index)) && EMOJI_AFTER.test(text.slice(index + 1, index + 3));
}

/** The text cut into plain runs and marked invisible characters, in order. */
export function revealInvisible(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let at = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    if (isEmojiGlue(text, match.index)) continue;
    if (match.index > at) segments.push({ kind: "text", text: text.slice(at, match.index) });
    const code = codePointLabel(match[0]);
    segments.push({ kind: "invisible", code, name: NAMES[match[0].charCodeAt(0)] ?? "invisible or control character" });
    at = match.index + match[0].length;
  }
  if (at < text.length) segments.push({ kind: "text", text: text.slice(at) });
  return segments;
}

/** Right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms). */
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]/;

/**
 * The text for places that take a plain string (an `<option>`, a confirm
 * dialog): each invisible character written out as `[U+202E]`, and text
 * that could reorder what follows it (right-to-left script) wrapped in a
 * first-strong isolate. Plain left-to-right text comes back unchanged.
 */
export function safeLabel(text: string): string {
  const shown = hasInvisible(text) ? text.replace(INVISIBLE, (character) => `[${codePointLabel(character)}]`) : text;
  return RIGHT_TO_LEFT.test(shown) ? `\u2068${shown}\u2069` : shown;
}
