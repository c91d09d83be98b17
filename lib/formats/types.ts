import type { Message, ToolDefinition } from "@/lib/context/messages";

/** The wire formats the converters speak. */
export type WireFormat = "openai-chat" | "openai-responses" | "anthropic" | "gemini";

/** Every wire format, in a stable order (export pickers, round-trip tests). */
export const WIRE_FORMATS: readonly WireFormat[] = ["openai-chat", "openai-responses", "anthropic", "gemini"];

/** A JSON path as segments: numbers index arrays, strings name object keys. */
export type JsonPath = readonly (string | number)[];

/** What kind of approximation or loss a warning reports. */
export type FormatWarningCode =
  /** A legacy OpenAI `function_call` / role `function` became a tool call / result. */
  | "legacy-function-call"
  /** Tool call arguments were an object; they are kept as a JSON string. */
  | "arguments-stringified"
  /** A tool call had no `type`; it was set to "function". */
  | "tool-type-added"
  /** Two ways of writing the same thing were folded into one (a flat tool, a string system). */
  | "shape-normalised"
  /** A part the target format cannot hold was written as something close to it. */
  | "part-approximated"
  /** A part, field or tool the target format cannot hold was left out. */
  | "part-dropped"
  /** A system message could not stay where it was (only leading ones have a place). */
  | "system-moved"
  /** Provider fields of another provider had no place in the target format. */
  | "extras-dropped"
  /** A cache mark had no place in the target format. */
  | "cache-control-dropped"
  /** Gemini has no call ids here: one was generated and the result paired by order and name. */
  | "call-id-generated";

/** Something a conversion approximated or could not carry; never silent. */
export interface FormatWarning {
  code: FormatWarningCode;
  message: string;
  /** Where in the source: `messages[3].content[1]` (reading), or in the canonical messages (writing). */
  path: string;
  /** Index of the canonical message concerned (output of a reader, input of a writer). */
  messageIndex?: number;
}

/** Options every reader takes. */
export interface ReadOptions {
  /** Where the value read sits in the whole input, prefixed to every path (`["traj"]`, `[3, "messages"]`). */
  path?: JsonPath;
}

/** What a reader returns: canonical messages and tools, and what it approximated. */
export interface ReadResult {
  messages: Message[];
  tools?: ToolDefinition[];
  warnings: FormatWarning[];
}

/** A request read whole: also the fields the canonical form does not hold (`model`, `temperature`, ...). */
export interface RequestReadResult extends ReadResult {
  rest: Record<string, unknown>;
}

/** What a writer returns: the wire value and what it approximated or dropped. */
export interface WriteResult<T> {
  value: T;
  warnings: FormatWarning[];
}

/** Canonical messages and tools, the input of request writers. */
export interface CanonicalConversation {
  messages: readonly Message[];
  tools?: readonly ToolDefinition[];
}
