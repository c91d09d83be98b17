import { FormatError, MAX_FORMAT_ISSUES, formatPath, type FormatIssue } from "./errors";
import type { FormatWarning, FormatWarningCode, JsonPath, WireFormat } from "./types";

/**
 * What one conversion gathers as it goes: problems (a reader refuses the
 * input with all of them at the end, not at the first) and warnings.
 */
export class ConversionContext {
  private readonly shared: { issues: FormatIssue[]; warnings: FormatWarning[]; truncated: boolean };

  constructor(
    readonly format: WireFormat,
    /** Prefixed to every path: where the converted value sits in the whole input. */
    readonly base: JsonPath = [],
    parent?: ConversionContext,
  ) {
    this.shared = parent?.shared ?? { issues: [], warnings: [], truncated: false };
  }

  /** A context for a value inside this one: same problems and warnings, paths under `path`. */
  child(path: JsonPath): ConversionContext {
    return new ConversionContext(this.format, [...this.base, ...path], this);
  }

  get issues(): readonly FormatIssue[] {
    return this.shared.issues;
  }

  get warnings(): FormatWarning[] {
    return this.shared.warnings;
  }

  /** Records a problem at `path` (relative to `base`). */
  fail(path: JsonPath, message: string, messageIndex?: number): void {
    if (this.shared.issues.length >= MAX_FORMAT_ISSUES) {
      this.shared.truncated = true;
      return;
    }
    const full = [...this.base, ...path];
    const issue: FormatIssue = { message, path: full, pathText: formatPath(full) };
    if (messageIndex !== undefined) issue.messageIndex = messageIndex;
    this.shared.issues.push(issue);
  }

  warn(code: FormatWarningCode, message: string, path: JsonPath, messageIndex?: number): void {
    const warning: FormatWarning = { code, message, path: formatPath([...this.base, ...path]) };
    if (messageIndex !== undefined) warning.messageIndex = messageIndex;
    this.warnings.push(warning);
  }

  /** True once problems past the limit were found and not recorded. */
  get truncated(): boolean {
    return this.shared.truncated;
  }

  /** Past the limit nothing more is recorded, so readers may stop scanning. */
  get isFull(): boolean {
    return this.shared.truncated;
  }

  /** Throws one `FormatError` with every problem found, if any. */
  finish(): void {
    if (this.issues.length > 0) throw new FormatError(this.format, this.shared.issues, this.shared.truncated);
  }
}

/** True for a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value without the listed keys, or undefined when nothing is left. */
export function otherFields(value: Record<string, unknown>, known: readonly string[]): Record<string, unknown> | undefined {
  const rest: Record<string, unknown> = {};
  let any = false;
  for (const [key, field] of Object.entries(value)) {
    if (known.includes(key) || field === undefined) continue;
    rest[key] = field;
    any = true;
  }
  return any ? rest : undefined;
}
