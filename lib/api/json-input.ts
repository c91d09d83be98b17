import { formatIssuePath } from "./errors";

/** JSON bodies may nest arrays and objects this deep; deeper gets 400 before anything walks them. */
export const MAX_JSON_DEPTH = 100;

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
 * exhaust.
 */
export function findExcessiveNesting(text: string, limit = MAX_JSON_DEPTH): JsonProblem | null {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92) index += 1;
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 || code === 91) {
      depth += 1;
      if (depth > limit) return { path: "", message: `nests deeper than ${limit} levels of arrays and objects`, offset: index };
    } else if (code === 125 || code === 93) depth -= 1;
  }
  return null;
}

interface Frame {
  value: unknown;
  parent: Frame | null;
  key: string | number | null;
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

/**
 * The first string (or key) in a parsed JSON value that is not well-formed
 * Unicode, named by its path; null when every string is. Lone surrogates
 * cannot be stored as UTF-8 (PostgreSQL refuses them) nor counted as tokens,
 * so they are refused where they enter. Iterative, so any depth is safe.
 */
export function findLoneSurrogate(value: unknown): JsonProblem | null {
  const stack: Frame[] = [{ value, parent: null, key: null }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const current = frame.value;
    if (typeof current === "string") {
      if (!isWellFormedText(current)) return { path: pathOf(frame), message: LONE_SURROGATE };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) stack.push({ value: current[index], parent: frame, key: index });
    } else if (current !== null && typeof current === "object") {
      for (const [key, item] of Object.entries(current)) {
        if (!isWellFormedText(key)) return { path: pathOf(frame), message: `a key ${LONE_SURROGATE}` };
        stack.push({ value: item, parent: frame, key });
      }
    }
  }
  return null;
}
