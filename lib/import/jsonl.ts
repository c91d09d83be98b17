/**
 * JSONL: one JSON value a line. Either every line is a message (one
 * conversation) or every line is a conversation (a `{messages}` request, a
 * tau-bench entry or an array of messages).
 */
import type { ImportIssue } from "./errors";
import { type IssueCollector, MessageScope, isRecord, type JsonPath } from "./issues";
import { classify, detectDialect } from "./detect";
import { convertMessageList, convertMessageListSteps, convertRequest, type ConversationDraft, type Dialect } from "./requests";
import { findSyntaxError, offsetFromEngineMessage } from "./syntax";
import { convertTauBenchEntry } from "./tau-bench";
import { MAX_IMPORT_ISSUES } from "./errors";
import { ImportContext, findDocumentImporter, runImporter } from "./registry";
import type { ImportFormat } from "./types";
import { callFactsOf, type CallFacts } from "@/lib/formats";

/** One non-blank line and the value on it. */
export interface JsonlRecord {
  value: unknown;
  /** 1-based line number in the input. */
  line: number;
  start: number;
  end: number;
}

function* nonBlankLines(text: string): Generator<{ line: number; start: number; end: number }> {
  let line = 1;
  for (let start = 0; start <= text.length; line += 1) {
    const newline = text.indexOf("\n", start);
    const next = newline === -1 ? text.length : newline;
    const end = text[next - 1] === "\r" ? next - 1 : next;
    if (text.slice(start, end).trim() !== "") yield { line, start, end };
    if (newline === -1) return;
    start = newline + 1;
  }
}

/** True when the input has several non-blank lines and the first parses as JSON on its own. */
export function looksLikeJsonl(text: string): boolean {
  const lines = nonBlankLines(text);
  const first = lines.next();
  if (first.done || lines.next().done) return false;
  try {
    JSON.parse(text.slice(first.value.start, first.value.end));
    return true;
  } catch {
    return false;
  }
}

/** Lines parsed between two points where an async import may yield, and characters of them: a few 1M-character lines make a step. */
const LINES_PER_STEP = 500;
const CHARACTERS_PER_STEP = 1 << 20;

/** Parses every line; syntax errors are reported for all lines (up to the limit), each with line and column. */
export function* readJsonlRecords(text: string): Generator<void, { records: JsonlRecord[]; syntaxIssues: ImportIssue[]; truncated: boolean }, void> {
  const records: JsonlRecord[] = [];
  const syntaxIssues: ImportIssue[] = [];
  let truncated = false;
  let count = 0;
  let characters = 0;
  for (const { line, start, end } of nonBlankLines(text)) {
    count += 1;
    characters += end - start;
    if (count % LINES_PER_STEP === 0 || characters > CHARACTERS_PER_STEP) {
      yield;
      characters = end - start;
    }
    try {
      records.push({ value: JSON.parse(text.slice(start, end)), line, start, end });
    } catch (error) {
      if (syntaxIssues.length === MAX_IMPORT_ISSUES) {
        truncated = true;
        break;
      }
      const problem = findSyntaxError(text, start, end) ?? engineProblem(text, start, end, error);
      syntaxIssues.push({ message: problem.message, path: "", line, column: problem.offset - start + 1 });
    }
  }
  return { records, syntaxIssues, truncated };
}

function engineProblem(text: string, start: number, end: number, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  return { offset: Math.min(offsetFromEngineMessage(text, message, start) ?? start, end), message };
}

/** Converts the records; `dialect` forces how messages are read. */
export function* convertJsonlRecords(
  records: readonly JsonlRecord[],
  issues: IssueCollector,
  options: { forced?: ImportFormat; filename?: string },
): Generator<void, ConversationDraft[], void> {
  const dialect = options.forced === "openai" || options.forced === "anthropic" ? options.forced : undefined;
  const kinds = records.map((record) => (options.forced === "tau-bench" ? "tau-bench-entry" : classify(record.value)));
  const scopeFor = (conversationIndex?: number) => (prefix: JsonPath) => new MessageScope(issues, prefix, conversationIndex);
  yield;
  if (kinds[0] === "message") {
    const values = records.map((record) => record.value);
    const mixed = kinds.flatMap((kind, index) => (kind === "message" ? [] : [index]));
    for (const index of mixed) issues.add({ message: mixedMessage(records[0].line), path: [index] });
    // Validating a request as a message would only repeat the problem in other words.
    if (mixed.length > 0) return [];
    const scope = scopeFor()([]);
    const { messages: lines, facts } = takeFacts(values);
    const read = dialect ?? detectDialect(lines);
    yield;
    const messages = yield* convertMessageListSteps(lines, read, scope);
    const draft: ConversationDraft = { format: formatOf(read), messages, warnings: scope.warnings };
    if (facts.some((fact) => fact !== undefined) && messages.length === lines.length) draft.facts = facts;
    return [draft];
  }
  const context = new ImportContext(issues, options.filename);
  return records.flatMap((record, index): ConversationDraft[] => {
    const value = record.value;
    const makeScope = scopeFor(index);
    const importer = options.forced === undefined || options.forced === "jsonl" ? findDocumentImporter(value) : undefined;
    if (importer !== undefined)
      return runImporter(importer.format, issues, () => importer.convert(value, { path: [index], conversationIndex: index }, context));
    if (kinds[index] === "tau-bench-entry") return [convertTauBenchEntry(value, [index], makeScope, options.filename)];
    if (kinds[index] === "messages" && Array.isArray(value)) {
      const scope = makeScope([index]);
      const read = dialect ?? detectDialect(value);
      return [{ format: formatOf(read), messages: convertMessageList(value, read, scope), warnings: scope.warnings }];
    }
    if (kinds[index] === "request" && isRecord(value)) {
      const read = dialect ?? detectDialect(Array.isArray(value.messages) ? value.messages : [], value);
      return [{ format: formatOf(read), ...convertRequest(value, read, [index], makeScope) }];
    }
    issues.add({ message: notAConversation(kinds[index]), path: [index], conversationIndex: index });
    return [];
  });
}

/** A message line's `facts` (what our JSONL export writes: I13) taken off the message and read as its call's facts. */
function takeFacts(values: readonly unknown[]): { messages: unknown[]; facts: (CallFacts | undefined)[] } {
  const facts: (CallFacts | undefined)[] = [];
  const messages = values.map((value) => {
    if (!isRecord(value) || !isRecord(value.facts)) {
      facts.push(undefined);
      return value;
    }
    const { facts: field, ...message } = value;
    facts.push(callFactsOf(field as Record<string, unknown>));
    return message;
  });
  return { messages, facts };
}

/** JSONL of OpenAI messages is the `jsonl` format; other dialects keep their own name. */
function formatOf(dialect: Dialect): ImportFormat {
  return dialect === "openai" ? "jsonl" : dialect;
}

function mixedMessage(firstLine: number): string {
  return `this line is not a message, though line ${firstLine} is one: JSONL needs one message on every line or one conversation on every line`;
}

function notAConversation(kind: string | undefined): string {
  const found = kind === "message" ? "a single message, though the first line is a conversation" : "not a conversation";
  return `this line is ${found}: expected a {messages} request, a tau-bench {traj} entry or an array of messages on every line`;
}
