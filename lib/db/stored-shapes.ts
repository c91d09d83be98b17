import "server-only";

/**
 * IN-6: what a stored row's JSON columns must hold for every reader to
 * use them, checked where a session file comes in (refused, with the path)
 * and where rows are read (a row that breaks them is shown damaged, never a
 * failed page). Structural: the fields readers rely on, of the types they
 * rely on, nested no deeper than any JSON input may be.
 */

/** The nesting any JSON input may have (the API's `MAX_JSON_DEPTH`): deeper values break recursive readers. */
export const MAX_STORED_JSON_DEPTH = 100;
/** The largest whole number an `Int` column holds on both databases (PostgreSQL's `integer`). */
export const MAX_STORED_INTEGER = 2 ** 31 - 1;

type Check = (value: unknown) => string | null;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `value` nests arrays and objects deeper than `limit`; iterative, so any depth is safe. */
export function nestsDeeperThan(value: unknown, limit = MAX_STORED_JSON_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof current !== "object" || current === null) continue;
    if (depth + 1 > limit) return true;
    for (const item of Array.isArray(current) ? current : Object.values(current)) stack.push({ value: item, depth: depth + 1 });
  }
  return false;
}

/** A list's problem: the first bad item's, named by its index. */
function eachOf(check: Check, what: string): Check {
  return (value) => {
    if (!Array.isArray(value)) return `must be an array of ${what}`;
    for (const [index, item] of value.entries()) {
      const problem = check(item);
      if (problem) return `item ${index} ${problem}`;
    }
    return null;
  };
}

const toolCall: Check = (value) => {
  if (!isObject(value)) return "must be a tool call object";
  if (typeof value.id !== "string") return "needs a string id";
  if (value.type !== undefined && value.type !== "function") return 'has a type other than "function"';
  if (!isObject(value.function) || typeof value.function.name !== "string") return "needs function.name as a string";
  if (typeof value.function.arguments !== "string") return "needs function.arguments as JSON text (a string)";
  return null;
};

/** A message's `tool_calls`: OpenAI tool calls, arguments as JSON text. */
export const toolCallsProblem: Check = eachOf(toolCall, "tool calls");

const MEDIA_FIELDS: Record<string, string> = { url: "url", base64: "data", file: "fileId", text: "text" };

function sourceProblem(value: unknown): string | null {
  if (!isObject(value) || typeof value.type !== "string" || !(value.type in MEDIA_FIELDS)) return "needs a source of type url, base64, file or text";
  const field = MEDIA_FIELDS[value.type];
  return typeof value[field] === "string" ? null : `needs source.${field} as a string`;
}

const part: Check = (value) => {
  if (!isObject(value)) return "must be a part object";
  switch (value.type) {
    case "text":
    case "reasoning":
    case "refusal":
      return typeof value.text === "string" ? null : `is a ${value.type} part without text`;
    case "image":
    case "audio":
    case "document":
      return sourceProblem(value.source);
    case "provider":
      return typeof value.provider === "string" && isObject(value.data) ? null : "is a provider part without provider and data";
    default:
      return "has no known type (text, image, audio, document, reasoning, refusal or provider)";
  }
};

/** What a message holds beyond its chat fields (the `extension` column). */
export const extensionProblem: Check = (value) => {
  if (!isObject(value)) return "must be an object";
  if (value.parts !== undefined) {
    const problem = eachOf(part, "parts")(value.parts);
    if (problem) return `parts: ${problem}`;
  }
  if (value.cache_control !== undefined && !(isObject(value.cache_control) && typeof value.cache_control.type === "string"))
    return "cache_control must be an object with a type";
  if (value.extras !== undefined && !(isObject(value.extras) && Object.values(value.extras).every(isObject)))
    return "extras must be an object of objects, by provider";
  if (value.engine !== undefined && !(isObject(value.engine) && typeof value.engine.kind === "string")) return "engine must be an object with a kind";
  return null;
};

/** A JSON object column (metadata, settings, origin). */
export const objectProblem: Check = (value) => (isObject(value) ? null : "must be a JSON object");

const toolDefinition: Check = (value) =>
  isObject(value) && isObject(value.function) && typeof value.function.name === "string" ? null : "must be a tool definition with function.name";

/** A conversation's `tools`: OpenAI tool definitions. */
export const toolsProblem: Check = eachOf(toolDefinition, "tool definitions");

/**
 * The problem of a JSON column's text read with `check`, or null: text that
 * is not JSON, nesting past MAX_STORED_JSON_DEPTH, or the wrong shape.
 * `parsed` receives the value when there is no problem.
 */
export function jsonColumnProblem(text: string, check: Check, parsed?: (value: unknown) => void): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "is not JSON text";
  }
  if (nestsDeeperThan(value)) return `nests deeper than ${MAX_STORED_JSON_DEPTH} levels of arrays and objects`;
  const problem = check(value);
  if (!problem) parsed?.(value);
  return problem;
}

/** A JSON column's value when it holds the shape readers rely on, else `fallback`, the problem noted in `damaged` by the column's name. */
export function readJsonColumn<T>(name: string, text: string | null, check: Check, fallback: T, damaged: string[]): T {
  if (text === null) return fallback;
  let value = fallback;
  const problem = jsonColumnProblem(text, check, (parsed) => {
    value = parsed as T;
  });
  if (problem) damaged.push(`${name} ${problem}`);
  return value;
}
