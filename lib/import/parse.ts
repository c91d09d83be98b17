/**
 * The import pipeline: size check, JSON or JSONL, shape and dialect,
 * conversion with issues collected (not thrown one by one), then either one
 * `ImportError` with every issue located in the text, or the conversations.
 */
import { finishConversations } from "./conversation";
import { classify, describeValue, detectDialect } from "./detect";
import { ImportError, type ImportIssue } from "./errors";
import { IssueCollector, MessageScope, formatPath, isRecord, type JsonPath, type PendingIssue } from "./issues";
import { convertJsonlRecords, looksLikeJsonl, readJsonlRecords, type JsonlRecord } from "./jsonl";
import { LineIndex, locatePaths } from "./locate";
import { convertMessageList, convertRequest, type ConversationDraft } from "./requests";
import { findSyntaxError, offsetFromEngineMessage } from "./syntax";
import { convertTauBenchEntry } from "./tau-bench";
import type { ImportFormat, ImportResult, ParseConversationsOptions } from "./types";

/** Default `maxBytes`: 20 MB of UTF-8. */
export const DEFAULT_MAX_IMPORT_BYTES = 20 * 1024 * 1024;

/** The message of an input whose shape matches no format. */
export const UNKNOWN_FORMAT_MESSAGE =
  "could not recognise the format: expected an array of messages, {messages}, JSONL, Anthropic {messages with content blocks} or tau-bench {traj}";

const EMPTY_MESSAGE = "the input is empty: paste or drop a conversation (JSON or JSONL)";

/**
 * Turns pasted, dropped or posted text into conversations of canonical
 * messages, or throws an `ImportError` saying what is wrong and where.
 */
export function parseConversations(text: string, options: ParseConversationsOptions = {}): ImportResult {
  checkSize(text, options.maxBytes ?? DEFAULT_MAX_IMPORT_BYTES);
  // A byte-order mark is common in saved files and invisible to people; JSON.parse rejects it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === "") throw new ImportError([{ message: EMPTY_MESSAGE, path: "" }]);
  const forced = options.format === "auto" ? undefined : options.format;
  const issues = new IssueCollector();
  let drafts: ConversationDraft[];
  let locate: (anchors: JsonPath[]) => number[];
  const document = forced === "jsonl" ? undefined : tryParse(body);
  if (document?.ok === true) {
    drafts = convertDocument(document.value, forced, issues, options.filename);
    locate = (anchors) => locatePaths(body, anchors);
  } else if (forced === "jsonl" || looksLikeJsonl(body)) {
    const { records, syntaxIssues, truncated } = readJsonlRecords(body);
    if (syntaxIssues.length > 0) throw new ImportError(syntaxIssues, { truncated });
    drafts = convertJsonlRecords(records, issues, { forced, filename: options.filename });
    locate = (anchors) => anchors.map((anchor) => locateInRecord(body, records, anchor));
  } else {
    throw syntaxError(body, document?.error);
  }
  if (!issues.isEmpty) throw locatedError(issues, locate, new LineIndex(body));
  const conversations = finishConversations(drafts, options.filename);
  return { format: conversations[0].format, conversations };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error };
  }
}

function syntaxError(text: string, error: unknown): ImportError {
  const engineMessage = error instanceof Error ? error.message : String(error);
  const problem = findSyntaxError(text) ?? { offset: offsetFromEngineMessage(text, engineMessage) ?? 0, message: engineMessage };
  const { line, column } = new LineIndex(text).at(problem.offset);
  return new ImportError([{ message: problem.message, path: "", line, column }]);
}

/** Converts a parsed JSON document by its shape, or the shape `forced` implies. */
function convertDocument(value: unknown, forced: ImportFormat | undefined, issues: IssueCollector, filename?: string): ConversationDraft[] {
  const scopeFor = (conversationIndex?: number, single = false) => (prefix: JsonPath) =>
    new MessageScope(issues, prefix, conversationIndex, single);
  const dialect = forced === "openai" || forced === "anthropic" ? forced : undefined;
  const shape = forcedShape(value, forced) ?? classify(value);
  if (Array.isArray(value) && value.length === 0) {
    issues.add({ message: "the input is an empty array: there is nothing to import", path: [] });
    return [];
  }
  if (shape === "tau-bench-entry") return [convertTauBenchEntry(value, [], scopeFor(), filename)];
  if (shape === "tau-bench-entries" && Array.isArray(value)) {
    return eachUntilFull(value, issues, (entry, index) => convertTauBenchEntry(entry, [index], scopeFor(index), filename));
  }
  if (shape === "request" && isRecord(value)) {
    const read = dialect ?? detectDialect(Array.isArray(value.messages) ? value.messages : [], value);
    return [{ format: read, ...convertRequest(value, read, [], scopeFor()) }];
  }
  if (shape === "requests" && Array.isArray(value)) {
    return eachUntilFull(value, issues, (request, index) => {
      if (!isRecord(request)) {
        issues.add({ message: "each conversation must be an object {messages}", path: [index], conversationIndex: index });
        return { format: dialect ?? "openai", messages: [], warnings: [] };
      }
      const read = dialect ?? detectDialect(Array.isArray(request.messages) ? request.messages : [], request);
      return { format: read, ...convertRequest(request, read, [index], scopeFor(index)) };
    });
  }
  if (shape === "messages" || shape === "message") {
    const messages = Array.isArray(value) ? value : [value];
    const read = dialect ?? detectDialect(messages);
    const scope = scopeFor(undefined, shape === "message")([]);
    return [{ format: read, messages: convertMessageList(messages, read, scope), warnings: scope.warnings }];
  }
  issues.add({ message: `${UNKNOWN_FORMAT_MESSAGE}; found ${describeValue(value)}`, path: [] });
  return [];
}

/** A forced dialect reads anything as its own container; forced tau-bench reads anything as entries. */
function forcedShape(value: unknown, forced: ImportFormat | undefined) {
  if (forced === "tau-bench") return Array.isArray(value) ? "tau-bench-entries" : "tau-bench-entry";
  if (forced !== "openai" && forced !== "anthropic") return undefined;
  const shape = classify(value);
  if (shape === "tau-bench-entries") return "requests";
  if (shape === "tau-bench-entry" || shape === undefined) return "request";
  return shape;
}

function eachUntilFull<T>(values: readonly unknown[], issues: IssueCollector, convert: (value: unknown, index: number) => T): T[] {
  const results: T[] = [];
  for (let index = 0; index < values.length && !issues.isFull; index += 1) results.push(convert(values[index], index));
  return results;
}

function locateInRecord(text: string, records: readonly JsonlRecord[], anchor: JsonPath): number {
  const record = records[typeof anchor[0] === "number" ? anchor[0] : 0];
  return record === undefined ? 0 : locatePaths(text, [anchor.slice(1)], record.start)[0];
}

function locatedError(issues: IssueCollector, locate: (anchors: JsonPath[]) => number[], lines: LineIndex): ImportError {
  const offsets = locate(issues.found.map((issue) => issue.anchor));
  // An issue about the whole document has no line worth showing.
  const located = issues.found.map((issue, index) => toIssue(issue, issue.anchor.length === 0 ? undefined : lines.at(offsets[index])));
  return new ImportError(located, { truncated: issues.truncated });
}

function toIssue(pending: PendingIssue, position: { line: number; column: number } | undefined): ImportIssue {
  const issue: ImportIssue = { message: pending.message, path: formatPath(pending.path), ...position };
  if (pending.messageIndex !== undefined) issue.messageIndex = pending.messageIndex;
  if (pending.conversationIndex !== undefined) issue.conversationIndex = pending.conversationIndex;
  return issue;
}

function checkSize(text: string, limit: number): void {
  // Each UTF-16 code unit is at most 3 UTF-8 bytes: most inputs need no count.
  if (text.length * 3 <= limit) return;
  const bytes = utf8Length(text);
  if (bytes <= limit) return;
  const message = `the input is ${formatBytes(bytes)}, over the ${formatBytes(limit)} import limit`;
  throw new ImportError([{ message, path: "" }], { tooLarge: { bytes, limit } });
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

function formatBytes(bytes: number): string {
  const units: [number, string][] = [[1024 * 1024, "MB"], [1024, "KB"]];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}
