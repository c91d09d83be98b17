/**
 * Request bodies and bare message arrays of either dialect → conversation
 * drafts, through the wire converters of lib/formats. Their problems go to the
 * import's issue collector (located later in the text), their warnings to the
 * draft.
 */
import type { Message, ToolDefinition } from "@/lib/context/messages";
import {
  type CallFacts,
  type SessionFacts,
  ConversionContext,
  readAnthropicMessageList,
  readAnthropicSystem,
  readAnthropicTools,
  readChatFunctions,
  readChatMessageList,
  readChatTools,
  FormatError,
  readRequest,
  type FormatIssue,
  type FormatWarning,
  type RequestReadResult,
  type WireFormat,
} from "@/lib/formats";
import { formatPath, type JsonPath, type MessageScope } from "./issues";
import type { ImportedCompaction, ImportFormat, ImportWarning, SubagentLink } from "./types";

/** A message dialect: how one messages array is written. */
export type Dialect = "openai" | "anthropic";

/** A conversation before its title, markers and pairing warnings are added. */
export interface ConversationDraft {
  format: ImportFormat;
  messages: Message[];
  tools?: ToolDefinition[];
  source?: Record<string, unknown>;
  warnings: ImportWarning[];
  title?: string;
  /** Per message, same index as `messages` (IM-10). */
  facts?: (CallFacts | undefined)[];
  session?: SessionFacts;
  compactions?: ImportedCompaction[];
  subagentOf?: SubagentLink;
}

/**
 * Runs a lib/formats reader in a context rooted at `path` and hands its
 * problems to `scope` (each anchored at the message it is in, for the line)
 * and its warnings to `scope.warnings`. The way every import format reads
 * through a wire converter.
 */
export function readWithScope<T>(scope: MessageScope, format: WireFormat, path: JsonPath, read: (context: ConversionContext) => T): T {
  const context = new ConversionContext(format, path);
  const result = read(context);
  forwardIssues(scope, context.issues, context.truncated);
  for (const warning of context.warnings) scope.warnings.push(toImportWarning(warning, scope));
  return result;
}

/** A whole request body of `format` at `path` (a batch line's `body`), read into `scope`; undefined when refused. */
export function readRequestInScope(scope: MessageScope, format: WireFormat, body: unknown, path: JsonPath): RequestReadResult | undefined {
  try {
    const result = readRequest(format, body, { path });
    for (const warning of result.warnings) scope.warnings.push(toImportWarning(warning, scope));
    return result;
  } catch (error) {
    if (!FormatError.isInstance(error)) throw error;
    forwardIssues(scope, error.issues, error.truncated);
    return undefined;
  }
}

function forwardIssues(scope: MessageScope, issues: readonly FormatIssue[], truncated: boolean): void {
  const messagesPath = scope.prefix;
  for (const issue of issues) {
    const inMessages = startsWith(issue.path, messagesPath) && typeof issue.path[messagesPath.length] === "number";
    if (inMessages && scope.single) {
      // One message on its own: its paths carry no index.
      const rest = issue.path.slice(messagesPath.length + 1);
      scope.issues.add({
        message: issue.message,
        path: [...messagesPath, ...rest],
        anchor: messagesPath,
        messageIndex: 0,
        conversationIndex: scope.conversationIndex,
      });
    } else if (inMessages) {
      const index = issue.path[messagesPath.length] as number;
      scope.fail(index, issue.path.slice(messagesPath.length + 1), issue.message);
    } else scope.failAt(issue.path, issue.message);
  }
  if (truncated) scope.issues.truncated = true;
}

/**
 * Runs a lib/formats reader on values an importer gathered or rewrote from
 * elsewhere in the input (Claude Code lines, LangChain messages, AI SDK parts):
 * entry `k` of the array the reader sees came from `sources[k]`, so problems
 * and warnings name the source's own path and line, not the rewritten array's.
 */
export function readMapped<T>(
  scope: MessageScope,
  format: WireFormat,
  sources: readonly JsonPath[],
  read: (context: ConversionContext) => T,
  /** When the array read is a slice: the source index of its first entry, and how many messages came before it. */
  offsets: { source: number; output: number } = { source: 0, output: 0 },
): T {
  const context = new ConversionContext(format);
  const result = read(context);
  for (const issue of context.issues) {
    const index = issue.path[0];
    const source = typeof index === "number" ? sources[index] : undefined;
    if (source === undefined) scope.failAt(scope.prefix, issue.message);
    else
      scope.issues.add({
        message: issue.message,
        path: [...source, ...issue.path.slice(1)],
        anchor: source,
        messageIndex: offsets.source + (index as number),
        conversationIndex: scope.conversationIndex,
      });
  }
  if (context.truncated) scope.issues.truncated = true;
  for (const warning of context.warnings) {
    const converted = toImportWarning(warning, scope);
    if (converted.messageIndex !== undefined) converted.messageIndex += offsets.output;
    const lead = /^\[(\d+)\]\.?/.exec(warning.path);
    const source = lead === null ? undefined : sources[Number(lead[1])];
    if (source !== undefined && lead !== null) {
      const rest = warning.path.slice(lead[0].length);
      const base = formatPath(source);
      converted.path = rest === "" ? base : rest.startsWith("[") ? `${base}${rest}` : `${base}.${rest}`;
    }
    scope.warnings.push(converted);
  }
  return result;
}

function startsWith(path: JsonPath, prefix: JsonPath): boolean {
  return prefix.every((segment, index) => path[index] === segment);
}

function toImportWarning(warning: FormatWarning, scope: MessageScope): ImportWarning {
  const path = scope.single && scope.prefix.length === 0 ? warning.path.replace(/^\[0\]\.?/, "") : warning.path;
  const converted: ImportWarning = { code: warning.code, message: warning.message };
  if (warning.messageIndex !== undefined) converted.messageIndex = warning.messageIndex;
  if (path !== "") converted.path = path;
  return converted;
}

/**
 * Converts a messages array in `dialect`, appending to `messages` (which may
 * hold a system prompt already); `scope.prefix` is the array's own path.
 */
export function convertMessageList(raw: readonly unknown[], dialect: Dialect, scope: MessageScope, messages: Message[] = []): Message[] {
  if (raw.length === 0) scope.failAt(scope.prefix, "there are no messages: a conversation needs at least one message");
  if (dialect === "openai") {
    messages.push(...readWithScope(scope, "openai-chat", scope.prefix, (context) => readChatMessageList(raw, context)));
    return messages;
  }
  return readWithScope(scope, "anthropic", scope.prefix, (context) => readAnthropicMessageList(raw, context, messages));
}

/** Messages converted between two points where an async import may yield. */
const MESSAGES_PER_STEP = 1000;

/**
 * `convertMessageList` in slices, for long lists (IM-9). A slice ends before a
 * user turn (one without Anthropic tool results), so no tool call is read
 * apart from its results; the messages and warnings are those of one pass.
 */
export function* convertMessageListSteps(raw: readonly unknown[], dialect: Dialect, scope: MessageScope): Generator<void, Message[], void> {
  if (raw.length <= MESSAGES_PER_STEP || scope.single) return convertMessageList(raw, dialect, scope);
  const messages: Message[] = [];
  for (let start = 0; start < raw.length && !scope.issues.isFull; ) {
    let end = Math.min(raw.length, start + MESSAGES_PER_STEP);
    while (end < raw.length && !startsTurn(raw[end], dialect)) end += 1;
    const slice = raw.slice(start, end);
    const sources = slice.map((_, offset) => scope.pathOf(start + offset));
    const format = dialect === "openai" ? "openai-chat" : "anthropic";
    const read = readMapped(
      scope,
      format,
      sources,
      (context) => (dialect === "openai" ? readChatMessageList(slice, context) : readAnthropicMessageList(slice, context)),
      { source: start, output: messages.length },
    );
    messages.push(...read);
    start = end;
    yield;
  }
  return messages;
}

function startsTurn(value: unknown, dialect: Dialect): boolean {
  if (typeof value !== "object" || value === null || (value as { role?: unknown }).role !== "user") return false;
  const content = (value as { content?: unknown }).content;
  return (
    dialect === "openai" ||
    !Array.isArray(content) ||
    !content.some((block) => typeof block === "object" && block !== null && (block as { type?: unknown }).type === "tool_result")
  );
}

const requestFields: Record<Dialect, readonly string[]> = {
  openai: ["messages", "tools", "functions"],
  anthropic: ["messages", "tools", "system"],
};

/** Converts `{messages, tools?, ...}` at `path`; every other field is kept as `source`. */
export function convertRequest(
  raw: Record<string, unknown>,
  dialect: Dialect,
  path: JsonPath,
  makeScope: (prefix: JsonPath) => MessageScope,
): Omit<ConversationDraft, "format"> {
  const scope = makeScope([...path, "messages"]);
  const messages: Message[] = [];
  if (dialect === "anthropic" && raw.system != null) {
    const system = readWithScope(scope, "anthropic", [...path, "system"], (context) => readAnthropicSystem(raw.system, context));
    if (system !== undefined) messages.push(system);
  }
  if (!Array.isArray(raw.messages)) scope.failAt([...path, "messages"], "messages must be an array of messages");
  else convertMessageList(raw.messages, dialect, scope, messages);
  const draft: Omit<ConversationDraft, "format"> = { messages, warnings: scope.warnings };
  const tools = readTools(raw, dialect, path, scope);
  if (tools !== undefined) draft.tools = tools;
  const source = Object.fromEntries(Object.entries(raw).filter(([key]) => !requestFields[dialect].includes(key)));
  if (Object.keys(source).length > 0) draft.source = source;
  return draft;
}

function readTools(raw: Record<string, unknown>, dialect: Dialect, path: JsonPath, scope: MessageScope): ToolDefinition[] | undefined {
  if (raw.tools == null && (dialect === "anthropic" || raw.functions == null)) return undefined;
  return readWithScope(scope, dialect === "openai" ? "openai-chat" : "anthropic", path, (context) => {
    if (dialect === "anthropic") return readAnthropicTools(raw.tools, context, ["tools"]);
    const tools = raw.tools == null ? [] : readChatTools(raw.tools, context, ["tools"]);
    if (raw.functions != null) {
      context.warn("legacy-function-call", "legacy functions became tools", ["functions"]);
      tools.push(...readChatFunctions(raw.functions, context, ["functions"]));
    }
    return tools;
  });
}
