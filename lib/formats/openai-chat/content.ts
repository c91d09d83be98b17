/** OpenAI Chat content parts ↔ canonical parts (F-C2 in SPEC.md). */
import type { CacheControl, ContentPart, MediaSource } from "@/lib/context/messages";
import { otherFields, isRecord, type ConversionContext } from "../context";
import { parseDataUrl, toDataUrl, withExtras } from "../canonical";
import { readCacheControl } from "../cache";
import type { JsonPath } from "../types";

/** A chat message's content → parts, or undefined (with a problem recorded) when it cannot be read. */
export function readChatContent(content: unknown, role: string, context: ConversionContext, path: JsonPath, at: number): ContentPart[] | undefined {
  if (content === undefined || content === null) {
    if (role === "assistant" || role === "tool" || role === "function") return [];
    context.fail([...path, "content"], `a ${role} message needs content: a string or an array of content parts`, at);
    return undefined;
  }
  if (typeof content === "string") return content === "" && role === "assistant" ? [] : [{ type: "text", text: content }];
  if (!Array.isArray(content)) {
    context.fail([...path, "content"], "content must be a string, null or an array of content parts", at);
    return undefined;
  }
  const parts: ContentPart[] = [];
  let failed = false;
  content.forEach((raw: unknown, index) => {
    const part = readPart(raw, context, [...path, "content", index], at);
    if (part === undefined) failed = true;
    else parts.push(part);
  });
  return failed ? undefined : parts;
}

const knownFields: Record<string, readonly string[]> = {
  text: ["type", "text", "cache_control"],
  input_text: ["type", "text", "cache_control"],
  output_text: ["type", "text", "cache_control"],
  refusal: ["type", "refusal"],
  image_url: ["type", "image_url", "cache_control"],
  input_audio: ["type", "input_audio", "cache_control"],
  file: ["type", "file", "cache_control"],
};

function readPart(raw: unknown, context: ConversionContext, path: JsonPath, at: number): ContentPart | undefined {
  if (!isRecord(raw) || typeof raw.type !== "string") {
    context.fail(path, "a content part must be an object with a string type", at);
    return undefined;
  }
  const fail = (field: string, message: string) => {
    context.fail([...path, field], message, at);
    return undefined;
  };
  const part = readKnownPart(raw, fail);
  if (part === null) return { type: "provider", provider: "openai", data: raw };
  if (part === undefined) return undefined;
  const cacheControl = readCacheControl(raw.cache_control, context, [...path, "cache_control"], at);
  if (cacheControl !== undefined && (part.type === "text" || part.type === "image" || part.type === "audio" || part.type === "document"))
    part.cacheControl = cacheControl;
  const rest = otherFields(raw, knownFields[raw.type] ?? []);
  if (rest !== undefined) part.extras = withExtras(undefined, "openai", rest);
  return part;
}

/** The part, undefined when it is broken, null when its type is not a chat part we know. */
function readKnownPart(raw: Record<string, unknown>, fail: (field: string, message: string) => undefined): ContentPart | undefined | null {
  switch (raw.type) {
    case "text":
    case "input_text":
    case "output_text":
      return typeof raw.text === "string" ? { type: "text", text: raw.text } : fail("text", `a ${raw.type} part needs a string text`);
    case "refusal":
      return typeof raw.refusal === "string" ? { type: "refusal", text: raw.refusal } : fail("refusal", "a refusal part needs a string refusal");
    case "image_url": {
      const image = typeof raw.image_url === "string" ? { url: raw.image_url } : raw.image_url;
      if (!isRecord(image) || typeof image.url !== "string") return fail("image_url", "an image_url part needs image_url {url}");
      const part: ContentPart = { type: "image", source: sourceFromUrl(image.url) };
      if (image.detail === "auto" || image.detail === "low" || image.detail === "high") part.detail = image.detail;
      return part;
    }
    case "input_audio": {
      const audio = raw.input_audio;
      if (!isRecord(audio) || typeof audio.data !== "string" || typeof audio.format !== "string") {
        return fail("input_audio", "an input_audio part needs input_audio {data, format}");
      }
      // The format is the media type's subtype: `wav` is `audio/wav`.
      return { type: "audio", source: { type: "base64", mediaType: `audio/${audio.format}`, data: audio.data } };
    }
    case "file": {
      const file = raw.file;
      if (!isRecord(file)) return fail("file", "a file part needs file {file_id} or {file_data, filename}");
      const source = fileSource(file);
      if (source === undefined) return fail("file", "a file part needs a string file_id or file_data");
      const part: ContentPart = { type: "document", source };
      if (typeof file.filename === "string") part.title = file.filename;
      return part;
    }
    default:
      return null;
  }
}

function sourceFromUrl(url: string): MediaSource {
  const data = parseDataUrl(url);
  return data === undefined ? { type: "url", url } : { type: "base64", ...data };
}

function fileSource(file: Record<string, unknown>): MediaSource | undefined {
  if (typeof file.file_id === "string") return { type: "file", fileId: file.file_id };
  if (typeof file.file_data !== "string") return undefined;
  return parseDataUrl(file.file_data) === undefined ? { type: "base64", mediaType: "application/pdf", data: file.file_data } : sourceFromUrl(file.file_data);
}

/** A media source as a URL chat accepts: the URL itself, or base64 data as a data URL. */
export function sourceUrl(source: MediaSource): string | undefined {
  if (source.type === "url") return source.url;
  if (source.type === "base64") return toDataUrl(source.mediaType, source.data);
  return undefined;
}

/** A canonical part as a chat content part; undefined when chat has no such part (the caller warns). */
export function writeChatPart(part: ContentPart): Record<string, unknown> | undefined {
  const wire = writeKnownPart(part);
  if (wire === undefined) return undefined;
  const extra = part.extras?.openai;
  const cacheControl: CacheControl | undefined = "cacheControl" in part ? part.cacheControl : undefined;
  return { ...wire, ...(part.type === "provider" ? {} : extra), ...(cacheControl === undefined ? {} : { cache_control: cacheControl }) };
}

function writeKnownPart(part: ContentPart): Record<string, unknown> | undefined {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "refusal":
      return { type: "refusal", refusal: part.text };
    case "image": {
      const url = sourceUrl(part.source);
      if (url === undefined) return undefined;
      return { type: "image_url", image_url: part.detail === undefined ? { url } : { url, detail: part.detail } };
    }
    case "audio":
      if (part.source.type !== "base64") return undefined;
      return { type: "input_audio", input_audio: { data: part.source.data, format: part.format ?? part.source.mediaType.replace(/^audio\//, "") } };
    case "document": {
      const file: Record<string, unknown> = {};
      if (part.source.type === "file") file.file_id = part.source.fileId;
      else if (part.source.type === "base64") file.file_data = toDataUrl(part.source.mediaType, part.source.data);
      else return undefined;
      if (part.title !== undefined) file.filename = part.title;
      return { type: "file", file };
    }
    case "provider":
      return part.provider === "openai" ? { ...part.data } : undefined;
    case "reasoning":
      return undefined;
  }
}
