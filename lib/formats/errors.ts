import type { JsonPath, WireFormat } from "./types";
import { MarkedError } from "@/lib/context/light";

/** One precise problem with wire input. */
export interface FormatIssue {
  /** What is wrong, without the location: "a tool_use block needs a string id". */
  message: string;
  /** Where, as segments: `["messages", 3, "content", 1, "id"]`. */
  path: JsonPath;
  /** The same path as text: `messages[3].content[1].id`. */
  pathText: string;
  /** Index of the offending message (or item, or content) in its source array. */
  messageIndex?: number;
}

/** At most this many issues are kept; past it the error says there were more. */
export const MAX_FORMAT_ISSUES = 20;

const identifier = /^[A-Za-z_$][\w$]*$/;

/** `["messages", 14, "tool_call_id"]` → `messages[14].tool_call_id`; `[]` → `""`. */
export function formatPath(path: JsonPath): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (identifier.test(segment)) text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

const formatNames: Record<WireFormat, string> = {
  "openai-chat": "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  anthropic: "Anthropic Messages",
  gemini: "Gemini",
};

/** The name people know a wire format by. */
export function formatDisplayName(format: WireFormat): string {
  return formatNames[format];
}

function summarize(format: WireFormat, issues: readonly FormatIssue[], truncated: boolean): string {
  const lines = issues.map((issue) => (issue.pathText === "" ? issue.message : `${issue.pathText}: ${issue.message}`));
  if (lines.length === 1 && !truncated) return `not valid ${formatDisplayName(format)}: ${lines[0]}`;
  const count = truncated ? `more than ${lines.length}` : String(lines.length);
  return `not valid ${formatDisplayName(format)}: ${count} problems\n${lines.map((line) => `- ${line}`).join("\n")}`;
}

/**
 * Wire input a reader refused: which format it was read as and every problem
 * found (up to `MAX_FORMAT_ISSUES`), each with its path.
 */
export class FormatError extends MarkedError {
  static override readonly marker: symbol = Symbol.for("context-lab.error.format");
  readonly format: WireFormat;
  readonly issues: readonly FormatIssue[];
  /** True when more problems were found than `issues` lists. */
  readonly truncated: boolean;

  constructor(format: WireFormat, issues: readonly FormatIssue[], truncated = false) {
    super(summarize(format, issues, truncated));
    this.name = "FormatError";
    this.format = format;
    this.issues = issues;
    this.truncated = truncated;
  }

  /** The first problem's path as text, for errors that name one field. */
  get path(): string {
    return this.issues[0]?.pathText ?? "";
  }
}
