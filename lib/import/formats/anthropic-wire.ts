/**
 * Formats whose messages map block for block onto Anthropic Messages (Claude
 * Code lines, AI SDK messages) are rewritten as Anthropic messages and read by
 * lib/formats' Anthropic reader, each message remembering where it came from.
 */
import type { Message } from "@/lib/context/messages";
import { nameToolResults, parseDataUrl, readAnthropicMessage, readAnthropicSystem } from "@/lib/formats";
import type { JsonPath, MessageScope } from "../issues";
import { readMapped } from "../requests";

/** An Anthropic message (or a system prompt) built from the source at `source`. */
export interface WireMessage {
  role: "system" | "user" | "assistant" | string;
  content: unknown;
  source: JsonPath;
}

/** The canonical messages and, per wire message, the index of the first canonical message it became. */
export function readAnthropicWire(scope: MessageScope, wire: readonly WireMessage[]): { messages: Message[]; starts: number[] } {
  const starts: number[] = [];
  const messages = readMapped(
    scope,
    "anthropic",
    wire.map((message) => message.source),
    (conversion) => {
      const read: Message[] = [];
      wire.forEach((message, index) => {
        starts.push(read.length);
        if (message.role === "system") {
          const system = readAnthropicSystem(message.content, conversion.child([index]));
          if (system !== undefined) read.push(system);
        } else readAnthropicMessage({ role: message.role, content: message.content }, [index], index, conversion, read);
      });
      return nameToolResults(read);
    },
  );
  return { messages, starts };
}

/** An image or document block for a medium given as a URL, a data URL or base64 with its MIME type. */
export function mediaBlock(data: string, mediaType: string | undefined, filename?: string): Record<string, unknown> {
  const inline = parseDataUrl(data);
  const type = (inline?.mediaType ?? mediaType ?? "").startsWith("image/") ? "image" : "document";
  const source =
    inline !== undefined
      ? { type: "base64", media_type: inline.mediaType, data: inline.data }
      : /^(https?|gs|file):/i.test(data)
        ? { type: "url", url: data }
        : { type: "base64", media_type: mediaType ?? "application/octet-stream", data };
  const block: Record<string, unknown> = { type, source };
  if (type === "document" && filename !== undefined) block.title = filename;
  return block;
}

/** A tool result's content as Anthropic holds it: text as it is, anything else as its JSON. */
export function resultText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? null);
}
