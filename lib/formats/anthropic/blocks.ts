/** Anthropic content blocks ↔ canonical parts (F-A2–F-A5 in SPEC.md). */
import type { CacheControl, ContentPart, MediaSource } from "@/lib/context/messages";
import { readCacheControl } from "../cache";
import { withExtras } from "../canonical";
import { isRecord, otherFields, type ConversionContext } from "../context";
import type { JsonPath } from "../types";

/** Block types that are tool calls and results, handled by the message readers, not here. */
export const TOOL_BLOCKS = new Set(["tool_use", "tool_result"]);

const KNOWN_FIELDS: Record<string, readonly string[]> = {
  text: ["type", "text", "cache_control"],
  thinking: ["type", "thinking", "signature"],
  redacted_thinking: ["type", "data"],
  image: ["type", "source", "cache_control"],
  document: ["type", "source", "title", "cache_control"],
};

/** One block → a part; undefined (with a problem recorded) when it is broken. Unknown kinds are kept whole. */
export function readBlock(block: Record<string, unknown>, context: ConversionContext, path: JsonPath, at: number): ContentPart | undefined {
  const fail = (field: string, message: string) => {
    context.fail([...path, field], message, at);
    return undefined;
  };
  const part = readKnownBlock(block, fail);
  if (part === null) return { type: "provider", provider: "anthropic", data: block };
  if (part === undefined) return undefined;
  const cacheControl = readCacheControl(block.cache_control, context, [...path, "cache_control"], at);
  if (cacheControl !== undefined && (part.type === "text" || part.type === "image" || part.type === "document")) part.cacheControl = cacheControl;
  const rest = otherFields(block, KNOWN_FIELDS[String(block.type)] ?? []);
  if (rest !== undefined) part.extras = withExtras(undefined, "anthropic", rest);
  return part;
}

function readKnownBlock(block: Record<string, unknown>, fail: (field: string, message: string) => undefined): ContentPart | undefined | null {
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? { type: "text", text: block.text } : fail("text", "a text block needs a string text");
    case "thinking": {
      if (typeof block.thinking !== "string") return fail("thinking", "a thinking block needs a string thinking");
      const part: ContentPart = { type: "reasoning", text: block.thinking };
      if (typeof block.signature === "string") part.signature = block.signature;
      return part;
    }
    case "redacted_thinking":
      return typeof block.data === "string"
        ? { type: "reasoning", text: "", redacted: block.data }
        : fail("data", "a redacted_thinking block needs a string data");
    case "image": {
      const source = readSource(block.source);
      return source === undefined
        ? fail("source", 'an image block needs a source: {type: "base64", media_type, data}, {type: "url", url} or {type: "file", file_id}')
        : { type: "image", source };
    }
    case "document": {
      if (isRecord(block.source) && block.source.type === "content") return null;
      const source = readSource(block.source);
      if (source === undefined) return fail("source", "a document block needs a source: base64, text, url or file");
      const part: ContentPart = { type: "document", source };
      if (typeof block.title === "string") part.title = block.title;
      return part;
    }
    default:
      return null;
  }
}

function readSource(source: unknown): MediaSource | undefined {
  if (!isRecord(source)) return undefined;
  const mediaType = typeof source.media_type === "string" ? source.media_type : undefined;
  if (source.type === "base64" && typeof source.data === "string" && mediaType !== undefined) return { type: "base64", mediaType, data: source.data };
  if (source.type === "url" && typeof source.url === "string") return { type: "url", url: source.url };
  if (source.type === "file" && typeof source.file_id === "string") return { type: "file", fileId: source.file_id };
  if (source.type === "text" && typeof source.data === "string")
    return mediaType === undefined ? { type: "text", text: source.data } : { type: "text", text: source.data, mediaType };
  return undefined;
}

function writeSource(source: MediaSource): Record<string, unknown> {
  switch (source.type) {
    case "base64":
      return { type: "base64", media_type: source.mediaType, data: source.data };
    case "url":
      return { type: "url", url: source.url };
    case "file":
      return { type: "file", file_id: source.fileId };
    case "text":
      return { type: "text", media_type: source.mediaType ?? "text/plain", data: source.text };
  }
}

/** A part as a block; undefined when Anthropic has no such block (the caller warns). */
export function writeBlock(part: ContentPart): Record<string, unknown> | undefined {
  const block = writeKnownBlock(part);
  if (block === undefined || part.type === "provider") return block;
  const cacheControl: CacheControl | undefined = "cacheControl" in part ? part.cacheControl : undefined;
  return { ...block, ...part.extras?.anthropic, ...(cacheControl === undefined ? {} : { cache_control: cacheControl }) };
}

function writeKnownBlock(part: ContentPart): Record<string, unknown> | undefined {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "reasoning":
      if (part.redacted !== undefined) return { type: "redacted_thinking", data: part.redacted };
      return {
        type: "thinking",
        thinking: part.text === "" ? (part.summary ?? []).join("\n\n") : part.text,
        ...(part.signature === undefined ? {} : { signature: part.signature }),
      };
    case "image":
      return part.source.type === "text" ? undefined : { type: "image", source: writeSource(part.source) };
    case "document":
      return { type: "document", source: writeSource(part.source), ...(part.title === undefined ? {} : { title: part.title }) };
    case "provider":
      return part.provider === "anthropic" ? { ...part.data } : undefined;
    case "refusal":
      return { type: "text", text: part.text };
    case "audio":
      return undefined;
  }
}
