import "server-only";
import { InvalidArgumentError, type DatabaseDescription } from "./errors";

type DatabaseProvider = DatabaseDescription["provider"];

/**
 * IN-3: text a database can store. Neither stores a lone UTF-16 surrogate
 * (half of an astral character: it has no UTF-8 form, and Prisma refuses
 * to send it); PostgreSQL's text type refuses U+0000, which SQLite keeps.
 * JSON columns never hold either raw: `JSON.stringify` writes both as
 * `\u` escapes.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const SURROGATE_PROBLEM =
  "holds a lone UTF-16 surrogate (half of an emoji or other astral character), which cannot be stored: send the whole character, or remove it";
const NUL_PROBLEM = "holds the character U+0000, which PostgreSQL cannot store in text: remove it";

/** What keeps `text` out of a text column of `provider`, or null when it can be stored. */
export function unstorableTextProblem(text: string, provider: DatabaseProvider): string | null {
  if (LONE_SURROGATE.test(text)) return SURROGATE_PROBLEM;
  if (provider === "postgres" && text.includes("\u0000")) return NUL_PROBLEM;
  return null;
}

/** Throws `InvalidArgumentError` naming `argument` unless `text` can be stored in a text column of `provider`. */
export function requireStorableText(text: string | null | undefined, argument: string, provider: DatabaseProvider): void {
  if (typeof text !== "string") return;
  const problem = unstorableTextProblem(text, provider);
  if (problem) throw new InvalidArgumentError(argument, `${argument} ${problem}`);
}

/** Where a JSON value holds text a database of `provider` cannot store. */
export interface UnstorableText {
  /** `messages[3].content`; `""` for the value itself. */
  path: string;
  message: string;
}

interface Frame {
  value: unknown;
  path: string;
}

function pathTo(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (parent === "" ? key : `${parent}.${key}`) : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * The first string or key of a parsed JSON value that a text column of
 * `provider` could not store, with its path; null when there is none.
 * Iterative, so any depth is safe.
 */
export function findUnstorableText(value: unknown, provider: DatabaseProvider): UnstorableText | null {
  const stack: Frame[] = [{ value, path: "" }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop() as Frame;
    if (typeof current === "string") {
      const problem = unstorableTextProblem(current, provider);
      if (problem) return { path, message: problem };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) stack.push({ value: current[index], path: pathTo(path, index) });
    } else if (current !== null && typeof current === "object") {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, item] = entries[index];
        const problem = unstorableTextProblem(key, provider);
        if (problem) return { path, message: `has a key that ${problem}` };
        stack.push({ value: item, path: pathTo(path, key) });
      }
    }
  }
  return null;
}
