/** Request bodies and bare message arrays of either dialect → conversation drafts. */
import type { Message, ToolDefinition } from "@/lib/context/messages";
import { convertAnthropicMessages } from "./anthropic";
import { PART_SEPARATOR } from "./content";
import { isRecord, type JsonPath, type MessageScope } from "./issues";
import { convertOpenAIMessages } from "./openai";
import { convertAnthropicTools, convertOpenAITools } from "./tools";
import type { ImportFormat, ImportWarning } from "./types";

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
}

/**
 * Converts a messages array in `dialect`, appending to `messages` (which may
 * hold a system prompt already); `scope.prefix` is the array's own path.
 */
export function convertMessageList(raw: readonly unknown[], dialect: Dialect, scope: MessageScope, messages: Message[] = []): Message[] {
  if (raw.length === 0) scope.failAt(scope.prefix, "there are no messages: a conversation needs at least one message");
  if (dialect === "openai") return convertOpenAIMessages(raw, scope, messages);
  convertAnthropicMessages(raw, scope, messages);
  return messages;
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
  if (dialect === "anthropic") pushSystem(raw.system, [...path, "system"], scope, messages);
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
  if (dialect === "anthropic") {
    return raw.tools == null ? undefined : convertAnthropicTools(raw.tools, [...path, "tools"], scope);
  }
  const tools = raw.tools == null ? [] : (convertOpenAITools(raw.tools, [...path, "tools"], scope) ?? []);
  if (raw.functions != null) tools.push(...(convertOpenAITools(raw.functions, [...path, "functions"], scope, true) ?? []));
  return raw.tools == null && raw.functions == null ? undefined : tools;
}

/** Anthropic's top-level system prompt (a string or text blocks) becomes the first message. */
function pushSystem(system: unknown, path: JsonPath, scope: MessageScope, messages: Message[]): void {
  if (system == null) return;
  if (typeof system === "string") {
    messages.push({ role: "system", content: system });
    return;
  }
  if (!Array.isArray(system)) {
    scope.failAt(path, "system must be a string or an array of text blocks");
    return;
  }
  const texts: string[] = [];
  system.forEach((block: unknown, index) => {
    if (isRecord(block) && block.type === "text" && typeof block.text === "string") texts.push(block.text);
    else scope.failAt([...path, index], "a system block must be a text block {type: \"text\", text}");
  });
  messages.push({ role: "system", content: texts.join(PART_SEPARATOR) });
}
