/**
 * Canonical messages → text for export and download, through the wire
 * writers of lib/formats; `parseConversations` reads the OpenAI forms back,
 * and each provider's form reads back with its reader.
 */
import type { Message, ToolDefinition } from "@/lib/context/messages";
import { writeChatMessages, writeRequest, type CallFacts, type FormatWarning, type WireFormat } from "@/lib/formats";

/**
 * Export formats: an OpenAI Chat `{messages, tools?}` document, OpenAI chat
 * messages one a line, or a request body of another provider's format.
 */
export type SerializeFormat = "openai" | "jsonl" | Exclude<WireFormat, "openai-chat">;

/** Every export format, for a format picker. */
export const SERIALIZE_FORMATS: readonly SerializeFormat[] = ["openai", "jsonl", "openai-responses", "anthropic", "gemini"];

/** Options of `serializeConversation`. */
export interface SerializeConversationOptions {
  /** Tool definitions to include; JSONL has no place for them. */
  tools?: readonly ToolDefinition[];
  /** Per message, its call's facts: JSONL writes them on the message's line as `facts` (IM-13); the request formats have no place for them. */
  facts?: readonly (CallFacts | undefined)[];
}

/** A message's facts as a JSONL line holds them: the usage as the provider reported it. */
function factsField(facts: CallFacts): Record<string, unknown> {
  const { usage, ...rest } = facts;
  return usage === undefined ? rest : { ...rest, usage: usage.raw };
}

/** The exported text and what the target format could not hold. */
export interface SerializeResult {
  text: string;
  warnings: FormatWarning[];
}

/**
 * Levels of a request body written one value a line; deeper values are
 * written compact. Deep enough for a tool call's input and its keys (body,
 * messages, a message, its content, a block, `input`, a key's value).
 */
export const INDENTED_LEVELS = 6;

/**
 * `JSON.stringify(value, null, 2)` down to `levels` levels, compact below
 * them. IN-7: indenting every level makes a value nested n deep cost n²
 * characters (a 20 KB tool input nested 3,900 deep was 30 MB); bounded, an
 * export stays within a small multiple of what is stored.
 */
export function indentedJson(value: unknown, levels = INDENTED_LEVELS, prefix = ""): string {
  if (levels === 0 || value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const inner = `${prefix}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => inner + indentedJson(item, levels - 1, inner)).join(",\n")}\n${prefix}]`;
  }
  const entries = Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== "function");
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${indentedJson(item, levels - 1, inner)}`).join(",\n")}\n${prefix}}`;
}

/**
 * `indentedJson`'s text in pieces: the first `split` levels of arrays and
 * objects piece by piece (an item, a key), each deeper value whole, so a
 * caller can write a large document a piece at a time and pause between
 * pieces. No piece ends inside a string, so each may be escaped on its own.
 */
export function* indentedJsonPieces(value: unknown, split = 2, levels = INDENTED_LEVELS, prefix = ""): Generator<string> {
  if (split === 0 || levels === 0 || value === null || typeof value !== "object") {
    yield indentedJson(value, levels, prefix);
    return;
  }
  const inner = `${prefix}  `;
  const items: [string, unknown][] = Array.isArray(value)
    ? value.map((item) => ["", item])
    : Object.entries(value)
        .filter(([, item]) => item !== undefined && typeof item !== "function")
        .map(([key, item]) => [`${JSON.stringify(key)}: `, item]);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (items.length === 0) {
    yield open + close;
    return;
  }
  for (const [index, [key, item]] of items.entries()) {
    yield `${index === 0 ? `${open}\n` : ",\n"}${inner}${key}`;
    yield* indentedJsonPieces(item, split - 1, levels - 1, inner);
  }
  yield `\n${prefix}${close}`;
}

/** A JSON export's text in pieces (`indentedJsonPieces`) and what the format could not hold; the pieces joined are `serializeConversation`'s text. */
export interface SerializedPieces {
  pieces: Iterable<string>;
  warnings: FormatWarning[];
}

/** `serializeConversation` for the JSON formats, its text in pieces: for an export written as it is serialised. */
export function serializeConversationPieces(
  messages: readonly Message[],
  format: Exclude<SerializeFormat, "jsonl">,
  options: SerializeConversationOptions = {},
): SerializedPieces {
  const written = writeRequestOf(messages, format, options);
  return { pieces: documentPieces(written.value), warnings: written.warnings };
}

function* documentPieces(value: unknown): Generator<string> {
  yield* indentedJsonPieces(value);
  yield "\n";
}

function writeRequestOf(messages: readonly Message[], format: Exclude<SerializeFormat, "jsonl">, options: SerializeConversationOptions) {
  const tools = options.tools !== undefined && options.tools.length > 0 ? options.tools : undefined;
  return writeRequest(format === "openai" ? "openai-chat" : format, { messages, tools });
}

/** Serializes messages (and tools) in `format`: pretty-printed JSON (IN-7: deep values compact), or one message a line for JSONL. */
export function serializeConversation(messages: readonly Message[], format: SerializeFormat, options: SerializeConversationOptions = {}): SerializeResult {
  if (format === "jsonl") {
    const written = writeChatMessages(messages);
    // Each message is one line when it is written (F-5 keeps the count), so facts line up with lines.
    const lines = written.value.map((message, index) => {
      const facts = written.value.length === messages.length ? options.facts?.[index] : undefined;
      return JSON.stringify(facts === undefined ? message : { ...message, facts: factsField(facts) });
    });
    return { text: `${lines.join("\n")}\n`, warnings: written.warnings };
  }
  const written = writeRequestOf(messages, format, options);
  return { text: `${indentedJson(written.value)}\n`, warnings: written.warnings };
}
