// The import's one error class; `ImportError.isInstance` holds across bundles (MarkedError).
import { MarkedError } from "@/lib/context/light";

/** At most this many issues are reported; past it the error says there are more. */
export const MAX_IMPORT_ISSUES = 20;

/** One precise problem with the input. */
export interface ImportIssue {
  /** What is wrong, without the location: "a tool message needs a string tool_call_id". */
  message: string;
  /** JSON path in the input, e.g. `messages[14].tool_call_id` or `[3].traj[7].role`; `""` for the whole input. */
  path: string;
  /** Index of the offending message in its source messages array (as in `path`). */
  messageIndex?: number;
  /** 1-based line: of the syntax error, or where the offending message (else value) starts. */
  line?: number;
  /** 1-based column in UTF-16 code units, same anchor as `line`. */
  column?: number;
  /** Index of the conversation in a multi-conversation input (tau-bench array, JSONL of requests). */
  conversationIndex?: number;
  /** The format the input was read as ("Claude Code session (JSONL)"): what the problem is measured against. */
  format?: string;
}

/** Size of a refused input, for mapping to HTTP 413. */
export interface ImportTooLarge {
  bytes: number;
  limit: number;
}

/** Renders an issue for people: "line 212, message 14 (messages[14].tool_call_id): a tool message needs ...". */
export function formatImportIssue(issue: ImportIssue): string {
  const where: string[] = [];
  if (issue.line !== undefined) where.push(`line ${issue.line}`);
  // A column helps only when no path says where: syntax errors.
  if (issue.column !== undefined && issue.path === "") where.push(`column ${issue.column}`);
  if (issue.conversationIndex !== undefined) where.push(`conversation ${issue.conversationIndex}`);
  if (issue.messageIndex !== undefined) where.push(`message ${issue.messageIndex}`);
  let prefix = where.join(", ");
  if (issue.path !== "") prefix = prefix === "" ? issue.path : `${prefix} (${issue.path})`;
  const text = prefix === "" ? issue.message : `${prefix}: ${issue.message}`;
  return issue.format === undefined ? text : `${text} [read as ${issue.format}]`;
}

function summarize(issues: readonly ImportIssue[], truncated: boolean): string {
  if (issues.length === 1 && !truncated) return `could not import: ${formatImportIssue(issues[0])}`;
  const count = truncated ? `more than ${issues.length}` : String(issues.length);
  const lines = issues.map((issue) => `- ${formatImportIssue(issue)}`);
  if (truncated) lines.push(`- ... and more; fix these first`);
  return `could not import: ${count} problems\n${lines.join("\n")}`;
}

/** The input could not be imported; `issues` says what and where, at most `MAX_IMPORT_ISSUES` of them. */
export class ImportError extends MarkedError {
  static override readonly marker: symbol = Symbol.for("context-lab.error.import");
  readonly issues: readonly ImportIssue[];
  /** True when more problems were found than `issues` lists. */
  readonly truncated: boolean;
  /** Set when the input was refused for its size alone. */
  readonly tooLarge?: ImportTooLarge;

  constructor(issues: readonly ImportIssue[], options?: { truncated?: boolean; tooLarge?: ImportTooLarge }) {
    const truncated = options?.truncated ?? false;
    super(summarize(issues, truncated));
    this.name = "ImportError";
    this.issues = issues;
    this.truncated = truncated;
    this.tooLarge = options?.tooLarge;
  }
}
