/**
 * The canonical message's normal form, shared by every reader and writer so
 * that a message read from any format and written back reads as the same
 * value (F-1, F-2, F-3 in SPEC.md).
 */
import type { CacheControl, ContentPart, Message, ProviderExtras, ProviderName, Role, TextPart, ToolCall } from "@/lib/context/messages";

/** How text parts join into `content`. */
export const PART_SEPARATOR = "\n";

/** The text of a message's text parts, joined. */
export function textOfParts(parts: readonly ContentPart[]): string {
  return parts
    .filter((part): part is TextPart => part.type === "text")
    .map((part) => part.text)
    .join(PART_SEPARATOR);
}

/** Fields of a message besides role, content and parts. */
export interface MessageFields {
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
  cache_control?: CacheControl;
  extras?: ProviderExtras;
  /** F2: whether a cache mark on the last part is the message's (default: when the message has no tool calls, which come after its parts). */
  lastPartEndsMessage?: boolean;
}

/**
 * Builds a canonical message from its parts in wire order (F-1, F-2): a cache
 * mark on the last part is the message's; `parts` is kept only when the
 * message holds more than one plain text; `content` is the text parts joined,
 * null for an assistant without text.
 */
export function buildMessage(role: Role, wireParts: readonly ContentPart[], fields: MessageFields = {}): Message {
  const parts = [...wireParts];
  let cacheControl = fields.cache_control;
  const last = parts.at(-1);
  const endsMessage = fields.lastPartEndsMessage ?? (fields.tool_calls ?? []).length === 0;
  if (endsMessage && last !== undefined && "cacheControl" in last && last.cacheControl !== undefined && cacheControl === undefined) {
    cacheControl = last.cacheControl;
    const { cacheControl: _moved, ...rest } = last;
    parts[parts.length - 1] = rest as ContentPart;
  }
  const hasText = parts.some((part) => part.type === "text");
  const message: Message = { role, content: role === "assistant" && !hasText ? null : textOfParts(parts) };
  if (!isPlainText(parts)) message.parts = parts;
  if (fields.tool_calls !== undefined && fields.tool_calls.length > 0) message.tool_calls = fields.tool_calls;
  if (fields.tool_call_id !== undefined) message.tool_call_id = fields.tool_call_id;
  if (fields.name !== undefined) message.name = fields.name;
  if (cacheControl !== undefined) message.cache_control = cacheControl;
  if (fields.extras !== undefined && Object.keys(fields.extras).length > 0) message.extras = fields.extras;
  return message;
}

function isPlainText(parts: readonly ContentPart[]): boolean {
  if (parts.length > 1) return false;
  const only = parts[0];
  return only === undefined || (only.type === "text" && only.cacheControl === undefined && only.extras === undefined);
}

/**
 * The parts a writer sends (F-3): the message's parts, or its content as one
 * text part. When a processor rewrote `content` so it no longer matches the
 * text parts, the text parts give way to one part holding `content`, where
 * the first text part was; the other parts stay.
 */
export function partsToWrite(message: Message): ContentPart[] {
  const content = message.content ?? "";
  if (message.parts === undefined || message.parts.length === 0) {
    return content === "" && message.role === "assistant" ? [] : [{ type: "text", text: content }];
  }
  if (textOfParts(message.parts) === content) return message.parts;
  const written: ContentPart[] = [];
  let placed = content === "";
  for (const part of message.parts) {
    if (part.type !== "text") written.push(part);
    else if (!placed) {
      written.push({ type: "text", text: content });
      placed = true;
    }
  }
  if (!placed) written.push({ type: "text", text: content });
  return written;
}

/** A provider's extras of a message or part, `{}` when none. */
export function extrasOf(holder: { extras?: ProviderExtras }, provider: ProviderName): Readonly<Record<string, unknown>> {
  return holder.extras?.[provider] ?? {};
}

/** `extras` with `provider`'s fields set (dropping undefined values); undefined when nothing is left. */
export function withExtras(
  extras: ProviderExtras | undefined,
  provider: ProviderName,
  fields: Record<string, unknown> | undefined,
): ProviderExtras | undefined {
  const kept = Object.fromEntries(Object.entries(fields ?? {}).filter(([, value]) => value !== undefined));
  const result: Record<string, Readonly<Record<string, unknown>>> = { ...extras };
  if (Object.keys(kept).length > 0) result[provider] = { ...result[provider], ...kept };
  return Object.keys(result).length > 0 ? result : undefined;
}

/** Keys of a holder's `provider` extras that a writer does not put back (another API of the same provider wrote them). */
export function unusedExtras(holder: { extras?: ProviderExtras }, provider: ProviderName, used: readonly string[]): string[] {
  return Object.keys(holder.extras?.[provider] ?? {}).filter((key) => !used.includes(key));
}

/** Providers other than `provider` that left extras on a message or part. */
export function foreignExtras(holder: { extras?: ProviderExtras }, provider: ProviderName): string[] {
  return Object.keys(holder.extras ?? {}).filter((key) => key !== provider);
}

const dataUrl = /^data:([^;,]+)?((?:;[^;,]+)*?);base64,(.*)$/s;

/** `data:image/png;base64,...` → its media type and data; undefined for any other URL. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = dataUrl.exec(url);
  if (match === null) return undefined;
  return { mediaType: match[1] ?? "application/octet-stream", data: match[3] };
}

/** The data URL of base64 data. */
export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** Tool arguments as a JSON object when they parse to one. */
export function argumentsObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** What of a media part a format without MIME types on URLs, or without `detail`/`title`, leaves out. */
export function mediaLosses(part: ContentPart, holds: { urlMediaType?: boolean; detail?: boolean; title?: boolean }): string[] {
  const losses: string[] = [];
  if (part.type !== "image" && part.type !== "audio" && part.type !== "document") return losses;
  if (!holds.urlMediaType && part.source.type !== "base64" && part.source.mediaType !== undefined) losses.push("the media type of a linked file");
  if (!holds.detail && part.type === "image" && part.detail !== undefined) losses.push("the image detail");
  if (!holds.title && part.type === "document" && part.title !== undefined) losses.push("the document title");
  if (part.type === "audio" && part.format !== undefined) losses.push("the audio format name");
  return losses;
}

/** F5: a tool result is named after the call it answers, as chat logs name them. */
export function nameToolResults(messages: Message[]): Message[] {
  const names = new Map<string, string>();
  messages.forEach((message, index) => {
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
    const name = message.role === "tool" && message.name === undefined ? names.get(message.tool_call_id ?? "") : undefined;
    if (name !== undefined) messages[index] = { ...message, name };
  });
  return messages;
}

/** True when a tool result's name is the one F5 implies: its call's function name. */
export function impliedName(message: Message, callNames: ReadonlyMap<string, string>): boolean {
  return message.role === "tool" && message.name !== undefined && callNames.get(message.tool_call_id ?? "") === message.name;
}
