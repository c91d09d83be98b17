/**
 * The import pipeline: size check, JSON or JSONL, shape and dialect,
 * conversion with issues collected (not thrown one by one), then either one
 * `ImportError` with every issue located in the text, or the conversations.
 */
import { finishConversations } from "./conversation";
import { classify, describeValue, detectDialect, type Shape } from "./detect";
import { ImportContext, LINES_IMPORTERS, findDocumentImporter, findLinesImporter, runImporter } from "./registry";
import { ImportError, type ImportIssue } from "./errors";
import { IssueCollector, MessageScope, formatPath, isRecord, type JsonPath, type PendingIssue } from "./issues";
import { convertJsonlRecords, looksLikeJsonl, readJsonlRecords, type JsonlRecord } from "./jsonl";
import { LineIndex, locatePaths } from "./locate";
import { convertMessageList, convertRequest, type ConversationDraft } from "./requests";
import { findSyntaxError, offsetFromEngineMessage } from "./syntax";
import { convertTauBenchEntry } from "./tau-bench";
import { IMPORT_FORMAT_LABELS, type ImportFormat, type ImportResult, type ParseConversationsOptions } from "./types";

/** The formats read by shape and dialect rather than by a registered importer. */
const LEGACY_FORMATS: ReadonlySet<ImportFormat> = new Set(["openai", "jsonl", "anthropic", "tau-bench"]);

/** Default `maxBytes`: 20 MB of UTF-8. */
export const DEFAULT_MAX_IMPORT_BYTES = 20 * 1024 * 1024;

/** The message of an input whose shape matches no format. */
/** The refusal of an input no reader recognises: it names every format the importer reads (IM-8). */
export const UNKNOWN_FORMAT_MESSAGE = `could not recognise the format: expected one of ${Object.values(IMPORT_FORMAT_LABELS).join(", ")}`;

const EMPTY_MESSAGE = "the input is empty: paste or drop a conversation (JSON or JSONL)";

/** Work between two points where an async caller may let other work run. */
export type ImportSteps<T> = Generator<void, T, void>;

/** Runs an import's steps to the end at once. */
export function runSteps<T>(steps: ImportSteps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}

/** Time an async import works before it lets other requests run (IM-9). */
const SLICE_MS = 10;

/**
 * Turns pasted, dropped or posted text into conversations of canonical
 * messages, or throws an `ImportError` saying what is wrong and where.
 */
export function parseConversations(text: string, options: ParseConversationsOptions = {}): ImportResult {
  return runSteps(parseSteps(text, options));
}

/**
 * `parseConversations` for a server: JSONL lines are parsed, and long message
 * lists converted, in slices of about 10 ms with the event loop free between
 * them (IM-9), so a 100,000-message import does not hold up other requests.
 */
export async function parseConversationsAsync(text: string, options: ParseConversationsOptions = {}): Promise<ImportResult> {
  const steps = parseSteps(text, options);
  let sliceStart = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    }
  }
}

function* parseSteps(text: string, options: ParseConversationsOptions): ImportSteps<ImportResult> {
  yield* checkSize(text, options.maxBytes ?? DEFAULT_MAX_IMPORT_BYTES);
  // A byte-order mark is common in saved files and invisible to people; JSON.parse rejects it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!/\S/.test(body)) throw new ImportError([{ message: EMPTY_MESSAGE, path: "" }]);
  const forced = options.format === "auto" ? undefined : options.format;
  const issues = new IssueCollector();
  let drafts: ConversationDraft[];
  let locate: (anchors: JsonPath[]) => number[];
  const document = forced === "jsonl" ? undefined : tryParse(body);
  if (document?.ok === true && isLinesFormat(forced)) {
    // One line of a transcript parses as a JSON document of its own.
    const records = [{ value: document.value, line: 1, start: 0, end: body.length }];
    drafts = yield* convertLines(records, issues, forced, options.filename);
    locate = (anchors) => anchors.map((anchor) => locateInRecord(body, records, anchor));
  } else if (document?.ok === true) {
    drafts = convertDocument(document.value, forced, issues, options.filename);
    locate = (anchors) => locatePaths(body, anchors);
  } else if (forced === "jsonl" || looksLikeJsonl(body)) {
    const { records, syntaxIssues, truncated } = yield* readJsonlRecords(body);
    if (syntaxIssues.length > 0) throw new ImportError(syntaxIssues, { truncated });
    drafts = yield* convertLines(records, issues, forced, options.filename);
    locate = (anchors) => anchors.map((anchor) => locateInRecord(body, records, anchor));
  } else {
    throw syntaxError(body, document?.error);
  }
  if (issues.isEmpty) requireMessages(drafts, issues);
  if (!issues.isEmpty) throw locatedError(issues, locate, new LineIndex(body));
  const conversations = yield* finishConversations(drafts, options.filename);
  return { format: conversations[0].format, conversations };
}

/** A conversation with no message is refused, naming the format it was read as. */
function requireMessages(drafts: readonly ConversationDraft[], issues: IssueCollector): void {
  drafts.forEach((draft, index) => {
    if (draft.messages.length > 0) return;
    const message = `no messages found: the input was read as ${IMPORT_FORMAT_LABELS[draft.format]}, and it holds no message`;
    issues.add({ message, path: [], conversationIndex: drafts.length > 1 ? index : undefined, format: IMPORT_FORMAT_LABELS[draft.format] });
  });
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

function isLinesFormat(format: ImportFormat | undefined): boolean {
  return LINES_IMPORTERS.some((importer) => importer.format === format);
}

/** JSONL: a transcript format whose lines together make conversations, else one message or one conversation a line. */
function* convertLines(records: JsonlRecord[], issues: IssueCollector, forced: ImportFormat | undefined, filename?: string): ImportSteps<ConversationDraft[]> {
  const values = records.map((record) => record.value);
  yield;
  const importer = findLinesImporter(values, isLinesFormat(forced) ? forced : undefined);
  yield;
  if (importer === undefined) return yield* convertJsonlRecords(records, issues, { forced, filename });
  if (!importer.detectLines(values)) return notOfFormat(importer.format, `lines of ${describeValue(values[0])}`, issues);
  return runImporter(importer.format, issues, () => importer.convertLines(records, new ImportContext(issues, filename)));
}

/** A forced format the input does not look like: refused, saying what was found instead. */
function notOfFormat(format: ImportFormat, found: string, issues: IssueCollector): ConversationDraft[] {
  const label = IMPORT_FORMAT_LABELS[format];
  issues.add({ message: `the input is not ${label}: found ${found}`, path: [], format: label });
  return [];
}

/** Converts a parsed JSON document: a registered format's detector first, else by its shape, or the shape `forced` implies. */
function convertDocument(value: unknown, forced: ImportFormat | undefined, issues: IssueCollector, filename?: string): ConversationDraft[] {
  const importer = forced === undefined || !LEGACY_FORMATS.has(forced) ? findDocumentImporter(value, forced) : undefined;
  if (importer !== undefined && !importer.detect(value)) return notOfFormat(importer.format, describeValue(value), issues);
  if (importer !== undefined) return runImporter(importer.format, issues, () => importer.convert(value, { path: [] }, new ImportContext(issues, filename)));
  const shape = forcedShape(value, forced) ?? classify(value);
  const label =
    shape === "tau-bench-entry" || shape === "tau-bench-entries"
      ? "tau-bench"
      : forced === "anthropic"
        ? "anthropic"
        : forced === "openai"
          ? "openai"
          : undefined;
  const previous = issues.reading;
  if (shape !== undefined) issues.reading = IMPORT_FORMAT_LABELS[label ?? dialectOfShape(value, shape)];
  try {
    return convertShape(value, shape, forced, issues, filename);
  } finally {
    issues.reading = previous;
  }
}

function dialectOfShape(value: unknown, shape: Shape): ImportFormat {
  if (shape === "request" && isRecord(value)) return detectDialect(Array.isArray(value.messages) ? value.messages : [], value);
  if (shape === "messages" && Array.isArray(value)) return detectDialect(value);
  if (shape === "message") return detectDialect([value]);
  return "openai";
}

function convertShape(
  value: unknown,
  shape: Shape | undefined,
  forced: ImportFormat | undefined,
  issues: IssueCollector,
  filename?: string,
): ConversationDraft[] {
  const scopeFor =
    (conversationIndex?: number, single = false) =>
    (prefix: JsonPath) =>
      new MessageScope(issues, prefix, conversationIndex, single);
  const dialect = forced === "openai" || forced === "anthropic" ? forced : undefined;
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
  if (pending.format !== undefined) issue.format = pending.format;
  return issue;
}

function* checkSize(text: string, limit: number): ImportSteps<void> {
  // Each UTF-16 code unit is at most 3 UTF-8 bytes: most inputs need no count.
  if (text.length * 3 <= limit) return;
  const bytes = yield* utf8Length(text);
  if (bytes <= limit) return;
  const message = `the input is ${formatBytes(bytes)}, over the ${formatBytes(limit)} import limit`;
  throw new ImportError([{ message, path: "" }], { tooLarge: { bytes, limit } });
}

/** Characters counted between two points where an async import may yield. */
const CHARACTERS_PER_STEP = 1 << 20;

function* utf8Length(text: string): ImportSteps<number> {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (index % CHARACTERS_PER_STEP === 0) yield;
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
  const units: [number, string][] = [
    [1024 * 1024, "MB"],
    [1024, "KB"],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}
