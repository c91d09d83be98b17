import { MAX_STORED_INTEGER, MAX_STORED_JSON_DEPTH } from "@/lib/db/stored-shapes";
import { formatIssuePath } from "./errors";

/** JSON bodies may nest arrays and objects this deep, as deep as stored values may (IN-6); deeper gets 400 before anything walks them. */
export const MAX_JSON_DEPTH = MAX_STORED_JSON_DEPTH;
/** BD3: no string (or key) of a JSON input is longer than this many UTF-16 code units: 10 million, room for a base64 screenshot. */
export const MAX_STRING_LENGTH = 10_000_000;
/** BD3: no array of a JSON input has more elements than this: 200,000, twice the longest transcript the importer is measured with. */
export const MAX_ARRAY_LENGTH = 200_000;
/** BD4: the largest whole number an `Int` column holds on both databases. */
export { MAX_STORED_INTEGER };

/** Where parsed JSON holds something the API refuses. */
export interface JsonProblem {
  /** `messages[3].content`; `""` for the whole body. */
  path: string;
  message: string;
  /** Offset into the text, for problems found before parsing. */
  offset?: number;
}

/**
 * The first place `text` nests deeper than `limit`, scanning once and
 * skipping strings; null when it does not. Runs before `JSON.parse`, whose
 * recursion (and every recursive walk after it) a 100,000-deep body would
 * exhaust. A raw line break ends a string (JSON forbids one inside it), so
 * a broken line of a JSONL file cannot hide the lines after it. A string is
 * skipped by searching for its end (`indexOf`, native), not character by
 * character: a body of megabyte-long texts is scanned in about a
 * millisecond, so the check never holds the server (RL-ST1).
 */
export function findExcessiveNesting(text: string, limit = MAX_JSON_DEPTH): JsonProblem | null {
  let depth = 0;
  // The next line break at or after where a string is searched from (searched again only once passed).
  let lineEnd = -1;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 34) {
      const end = stringEnd(text, index, (from) => {
        if (lineEnd < from) lineEnd = indexOrLength(text, "\n", from);
        return lineEnd;
      });
      if (end === text.length) return null;
      index = end;
    } else if (code === 123 || code === 91) {
      depth += 1;
      if (depth > limit) return { path: "", message: `nests deeper than ${limit} levels of arrays and objects`, offset: index };
    } else if (code === 125 || code === 93) depth -= 1;
  }
  return null;
}

function indexOrLength(text: string, search: string, from: number): number {
  const found = text.indexOf(search, from);
  return found === -1 ? text.length : found;
}

/** Where the string opened by the quote at `open` ends: its closing quote or a raw line break, whichever comes first unescaped; the text's length if neither does. */
function stringEnd(text: string, open: number, nextLineBreak: (from: number) => number): number {
  let from = open + 1;
  for (;;) {
    const end = Math.min(indexOrLength(text, '"', from), nextLineBreak(from));
    if (end === text.length) return end;
    // Escaped by an odd run of backslashes right before it (inside the string).
    let slashes = 0;
    while (end - 1 - slashes > open && text.charCodeAt(end - 1 - slashes) === 92) slashes += 1;
    if (slashes % 2 === 0) return end;
    from = end + 1;
  }
}

interface Frame {
  value: unknown;
  parent: Frame | null;
  key: string | number | null;
  depth: number;
}

function pathOf(frame: Frame): string {
  const keys: (string | number)[] = [];
  for (let at: Frame | null = frame; at && at.key !== null; at = at.parent) keys.push(at.key);
  return formatIssuePath(keys.reverse());
}

const LONE_SURROGATE_PATTERN = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string is well-formed UTF-16 (`String.prototype.isWellFormed`, ES2024). */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE_PATTERN.test(text);
}

const LONE_SURROGATE = "holds a lone UTF-16 surrogate (half of an emoji or other astral character): send the whole character, or remove it";
const NUL_CHARACTER = "holds the character U+0000 (\\u0000), which PostgreSQL cannot store in text: remove it or write it another way";

/** What is wrong with one string of an input, or null. */
function textProblem(text: string, limits: JsonLimits): string | null {
  if (text.length > limits.stringLength) return `is ${text.length} characters long, over the ${limits.stringLength}-character limit`;
  if (!isWellFormedText(text)) return LONE_SURROGATE;
  if (limits.nul && text.includes("\u0000")) return NUL_CHARACTER;
  return null;
}

/** The limits `findJsonProblem` checks. */
export interface JsonLimits {
  depth: number;
  stringLength: number;
  arrayLength: number;
  /** Whether U+0000 is refused (it is wherever the value may reach the database). */
  nul: boolean;
}

/** BD3: every JSON input's limits. */
export const JSON_LIMITS: JsonLimits = { depth: MAX_JSON_DEPTH, stringLength: MAX_STRING_LENGTH, arrayLength: MAX_ARRAY_LENGTH, nul: true };

/**
 * The first thing in a parsed JSON value (or a value about to be stored as
 * JSON) the API refuses, named by its path; null when there is none:
 * nesting past `limits.depth`, a string or key past `limits.stringLength`,
 * an array past `limits.arrayLength`, a number that is not finite (`1e999`
 * parses as Infinity), a lone surrogate (neither database can store it as
 * UTF-8, nor can it be counted as tokens), U+0000 (PostgreSQL refuses it in
 * text and JSON alike). Iterative, so any depth is safe.
 */
export function findJsonProblem(value: unknown, limits: JsonLimits = JSON_LIMITS): JsonProblem | null {
  const stack: Frame[] = [{ value, parent: null, key: null, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const current = frame.value;
    if (typeof current === "string") {
      const problem = textProblem(current, limits);
      if (problem) return { path: pathOf(frame), message: problem };
    } else if (typeof current === "number") {
      if (!Number.isFinite(current)) return { path: pathOf(frame), message: "is a number too large to represent: send a finite number" };
    } else if (current !== null && typeof current === "object") {
      const depth = frame.depth + 1;
      if (depth > limits.depth) return { path: pathOf(frame), message: `nests deeper than ${limits.depth} levels of arrays and objects` };
      if (Array.isArray(current)) {
        if (current.length > limits.arrayLength)
          return { path: pathOf(frame), message: `has ${current.length} elements, over the ${limits.arrayLength}-element limit` };
        for (let index = current.length - 1; index >= 0; index -= 1) stack.push({ value: current[index], parent: frame, key: index, depth });
      } else {
        for (const [key, item] of Object.entries(current)) {
          const problem = textProblem(key, limits);
          if (problem) return { path: pathOf(frame), message: `has a key that ${problem}` };
          stack.push({ value: item, parent: frame, key, depth });
        }
      }
    }
  }
  return null;
}
