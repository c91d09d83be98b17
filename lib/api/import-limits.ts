import "server-only";
import type { Message } from "@/lib/context";
import type { ImportedConversation } from "@/lib/import";
import { HttpError } from "./errors";
import { lineAndColumn } from "./http";
import { findExcessiveNesting, findJsonProblem, MAX_ARRAY_LENGTH, MAX_JSON_DEPTH, type JsonProblem } from "./json-input";

/** Checking yields to other requests after this many milliseconds of work. */
const CHECK_SLICE_MS = 15;

function refusal(path: string, problem: string, located: { messageIndex?: number; conversationIndex?: number } = {}): HttpError {
  const where = located.conversationIndex === undefined ? path : `conversation ${located.conversationIndex}, ${path}`;
  return new HttpError(400, "import_failed", `${where}: ${problem}`, { issues: [{ path, message: problem, ...located }] });
}

/**
 * BD-3: an import's text nests no deeper than any other JSON input, checked
 * before it is parsed: the importers walk what they read recursively, and
 * a transcript nested 5,000 deep would exhaust the stack.
 */
export function requireShallowImport(text: string): void {
  const nesting = findExcessiveNesting(text);
  if (!nesting) return;
  const { line, column } = lineAndColumn(text, nesting.offset ?? 0);
  const message = `could not import: line ${line}, column ${column}: the input ${nesting.message}`;
  throw new HttpError(400, "import_failed", message, { issues: [{ path: "", message: nesting.message, line, column }] });
}

function joinPath(prefix: string, path: string): string {
  if (path === "") return prefix;
  return path.startsWith("[") ? `${prefix}${path}` : `${prefix}.${path}`;
}

/** The first tool call whose arguments (JSON in a string) nest too deep. */
function deepArguments(message: Message): JsonProblem | null {
  if (message.role !== "assistant") return null;
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    if (findExcessiveNesting(call.function.arguments))
      return { path: `tool_calls[${index}].function.arguments`, message: `nest deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` };
  }
  return null;
}

/**
 * BD-3: what an import read passes the limits of every JSON input before
 * anything is counted or written: each message (lone surrogates, U+0000,
 * string and array length, tool arguments nested too deep), the title and
 * everything else the conversation keeps, named by its path. Checked
 * message by message, yielding like the count.
 */
export async function requireStorableImport(imported: ImportedConversation, title: string, conversationIndex: number): Promise<void> {
  const located = { conversationIndex };
  if (imported.messages.length > MAX_ARRAY_LENGTH)
    throw refusal("messages", `holds ${imported.messages.length} messages, over the ${MAX_ARRAY_LENGTH}-message limit of one import`, located);
  let sliceStart = performance.now();
  for (const [messageIndex, message] of imported.messages.entries()) {
    const problem = findJsonProblem(message) ?? deepArguments(message);
    if (problem) throw refusal(joinPath(`messages[${messageIndex}]`, problem.path), problem.message, { messageIndex, conversationIndex });
    if (performance.now() - sliceStart > CHECK_SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  // The title is the first message's text unless `?title=` gave one: a message names the problem first.
  const titled = findJsonProblem(title);
  if (titled) throw refusal("title", titled.message, located);
  const { messages: _messages, ...rest } = imported;
  const problem = findJsonProblem(rest);
  if (problem) throw refusal(problem.path, problem.message, located);
}
