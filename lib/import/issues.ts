import type * as z from "zod";
import { MAX_IMPORT_ISSUES } from "./errors";
import { formatPath } from "@/lib/formats/errors";
import type { JsonPath } from "@/lib/formats/types";
import type { ImportWarning, ImportWarningCode } from "./types";

// One path syntax for every located error: the wire formats'.
export { formatPath };
export type { JsonPath };

/** An issue before its line is known. */
export interface PendingIssue {
  message: string;
  path: JsonPath;
  /** The value whose start gives the line: the offending message, else the path itself. */
  anchor: JsonPath;
  messageIndex?: number;
  conversationIndex?: number;
  /** The format the input was read as, named in the refusal. */
  format?: string;
}

/** Gathers issues up to the report limit and remembers whether more were found. */
export class IssueCollector {
  readonly found: PendingIssue[] = [];
  truncated = false;
  /** What the input is being read as (detection's answer); every issue added names it. */
  reading?: string;

  add(issue: Omit<PendingIssue, "anchor"> & { anchor?: JsonPath }): void {
    if (this.found.length >= MAX_IMPORT_ISSUES) {
      this.truncated = true;
      return;
    }
    const pending: PendingIssue = { ...issue, anchor: issue.anchor ?? issue.path };
    if (this.reading !== undefined && pending.format === undefined) pending.format = this.reading;
    this.found.push(pending);
  }

  get isEmpty(): boolean {
    return this.found.length === 0;
  }

  /** Past the limit nothing more is recorded, so callers may stop scanning. */
  get isFull(): boolean {
    return this.truncated;
  }
}

/**
 * Where one messages array sits in the input and where its issues and
 * warnings go; converters of every format share it.
 */
export class MessageScope {
  readonly warnings: ImportWarning[] = [];

  constructor(
    readonly issues: IssueCollector,
    /** Path of the messages array, e.g. `["messages"]`, `[3, "traj"]`, `[]` for JSONL lines. */
    readonly prefix: JsonPath,
    readonly conversationIndex?: number,
    /** The input is one message at `prefix`, not an array of them: paths carry no index. */
    readonly single = false,
  ) {}

  /** Path of source message `index`, plus `rest`. */
  pathOf(index: number, ...rest: (string | number)[]): (string | number)[] {
    return this.single ? [...this.prefix, ...rest] : [...this.prefix, index, ...rest];
  }

  /** An issue inside source message `index`; its line is where that message starts. */
  fail(index: number, rest: JsonPath, message: string): void {
    this.issues.add({
      message,
      path: this.pathOf(index, ...rest),
      anchor: this.pathOf(index),
      messageIndex: index,
      conversationIndex: this.conversationIndex,
    });
  }

  /** An issue outside any message (tools, the container itself). */
  failAt(path: JsonPath, message: string): void {
    this.issues.add({ message, path, conversationIndex: this.conversationIndex });
  }

  warn(code: ImportWarningCode, message: string, options?: { messageIndex?: number; path?: JsonPath }): void {
    const warning: ImportWarning = { code, message };
    if (options?.messageIndex !== undefined) warning.messageIndex = options.messageIndex;
    if (options?.path !== undefined) warning.path = formatPath(options.path);
    this.warnings.push(warning);
  }
}

/**
 * Runs a zod schema and reports every issue it finds at `path` + the issue's
 * own path; the schemas carry their own wording, so messages pass through.
 */
export function validate<T>(schema: z.ZodType<T>, value: unknown, report: (path: (string | number)[], message: string) => void): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    report(
      issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment)),
      issue.message,
    );
  }
  return undefined;
}

/** True for a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Where a reader reports what it noticed and what it refuses, by source path. */
export interface PathNotes {
  warn(code: ImportWarningCode, message: string, path: JsonPath): void;
  fail(path: JsonPath, message: string): void;
}

/** Notes into `scope`: a problem names the message it is in (its index follows the scope's prefix in the path). */
export function pathNotes(scope: MessageScope): PathNotes {
  return {
    warn: (code, message, path) => scope.warn(code, message, { path }),
    fail: (path, message) => {
      const index = path[scope.prefix.length];
      if (typeof index === "number") scope.fail(index, path.slice(scope.prefix.length + 1), message);
      else scope.failAt(path, message);
    },
  };
}
