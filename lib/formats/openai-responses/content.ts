/** OpenAI Responses content parts (`input_text`, `output_text`, `input_image`, ...) ↔ canonical parts (F-R2 in SPEC.md). */
import type { ContentPart, MediaSource } from "@/lib/context/messages";
import { parseDataUrl, toDataUrl, withExtras } from "../canonical";
import { isRecord, otherFields, type ConversionContext } from "../context";
import type { JsonPath } from "../types";

const KNOWN_FIELDS: Record<string, readonly string[]> = {
  input_text: ["type", "text"],
  output_text: ["type", "text"],
  refusal: ["type", "refusal"],
  input_image: ["type", "image_url", "file_id", "detail"],
  input_file: ["type", "file_id", "file_data", "file_url", "filename"],
  input_audio: ["type", "input_audio"],
};

/** A content value (a string or an array of parts) → parts; undefined (with problems recorded) when broken. */
export function readResponsesContent(content: unknown, context: ConversionContext, path: JsonPath, at: number): ContentPart[] | undefined {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) {
    context.fail(path, "content must be a string or an array of content parts", at);
    return undefined;
  }
  const parts: ContentPart[] = [];
  let failed = false;
  content.forEach((raw: unknown, index) => {
    const part = readPart(raw, context, [...path, index], at);
    if (part === undefined) failed = true;
    else parts.push(part);
  });
  return failed ? undefined : parts;
}

function readPart(raw: unknown, context: ConversionContext, path: JsonPath, at: number): ContentPart | undefined {
  if (!isRecord(raw) || typeof raw.type !== "string") {
    context.fail(path, "a content part must be an object with a string type", at);
    return undefined;
  }
  const part = readKnownPart(raw);
  if (part === null) return { type: "provider", provider: "openai", data: raw };
  if (part === undefined) {
    context.fail(path, `a ${raw.type} part is missing its ${requirement[raw.type] ?? "fields"}`, at);
    return undefined;
  }
  const rest = otherFields(raw, KNOWN_FIELDS[raw.type] ?? []);
  // An output_text's empty annotations list says nothing; it is written back on every output_text.
  if (rest !== undefined && raw.type === "output_text" && Array.isArray(rest.annotations) && rest.annotations.length === 0) delete rest.annotations;
  if (rest !== undefined && Object.keys(rest).length > 0) part.extras = withExtras(undefined, "openai", rest);
  return part;
}

const requirement: Record<string, string> = {
  input_text: "string text",
  output_text: "string text",
  refusal: "string refusal",
  input_image: "image_url or file_id",
  input_file: "file_id, file_data or file_url",
  input_audio: "input_audio {data, format}",
};

function readKnownPart(raw: Record<string, unknown>): ContentPart | undefined | null {
  switch (raw.type) {
    case "input_text":
    case "output_text":
      return typeof raw.text === "string" ? { type: "text", text: raw.text } : undefined;
    case "refusal":
      return typeof raw.refusal === "string" ? { type: "refusal", text: raw.refusal } : undefined;
    case "input_image": {
      const source = typeof raw.file_id === "string" ? fileSource(raw.file_id) : typeof raw.image_url === "string" ? urlSource(raw.image_url) : undefined;
      if (source === undefined) return undefined;
      const part: ContentPart = { type: "image", source };
      if (raw.detail === "auto" || raw.detail === "low" || raw.detail === "high") part.detail = raw.detail;
      return part;
    }
    case "input_file": {
      const source =
        typeof raw.file_id === "string"
          ? fileSource(raw.file_id)
          : typeof raw.file_data === "string"
            ? parseDataUrl(raw.file_data) === undefined
              ? { type: "base64" as const, mediaType: "application/pdf", data: raw.file_data }
              : urlSource(raw.file_data)
            : typeof raw.file_url === "string"
              ? urlSource(raw.file_url)
              : undefined;
      if (source === undefined) return undefined;
      const part: ContentPart = { type: "document", source };
      if (typeof raw.filename === "string") part.title = raw.filename;
      return part;
    }
    case "input_audio": {
      const audio = raw.input_audio;
      if (!isRecord(audio) || typeof audio.data !== "string" || typeof audio.format !== "string") return undefined;
      return { type: "audio", source: { type: "base64", mediaType: `audio/${audio.format}`, data: audio.data } };
    }
    default:
      return null;
  }
}

function fileSource(fileId: string): MediaSource {
  return { type: "file", fileId };
}

function urlSource(url: string): MediaSource {
  const data = parseDataUrl(url);
  return data === undefined ? { type: "url", url } : { type: "base64", ...data };
}

/** A part as a Responses content part (`output` for an assistant's text); undefined when Responses has none. */
export function writeResponsesPart(part: ContentPart, output: boolean): Record<string, unknown> | undefined {
  const wire = writeKnownPart(part, output);
  if (wire === undefined || part.type === "provider") return wire;
  return { ...wire, ...part.extras?.openai };
}

function writeKnownPart(part: ContentPart, output: boolean): Record<string, unknown> | undefined {
  switch (part.type) {
    case "text":
      return output ? { type: "output_text", text: part.text, annotations: [] } : { type: "input_text", text: part.text };
    case "refusal":
      return { type: "refusal", refusal: part.text };
    case "image": {
      const wire: Record<string, unknown> = { type: "input_image" };
      if (part.source.type === "file") wire.file_id = part.source.fileId;
      else if (part.source.type === "url") wire.image_url = part.source.url;
      else if (part.source.type === "base64") wire.image_url = toDataUrl(part.source.mediaType, part.source.data);
      else return undefined;
      if (part.detail !== undefined) wire.detail = part.detail;
      return wire;
    }
    case "document": {
      const wire: Record<string, unknown> = { type: "input_file" };
      if (part.source.type === "file") wire.file_id = part.source.fileId;
      else if (part.source.type === "url") wire.file_url = part.source.url;
      else if (part.source.type === "base64") wire.file_data = toDataUrl(part.source.mediaType, part.source.data);
      else return undefined;
      if (part.title !== undefined) wire.filename = part.title;
      return wire;
    }
    case "audio":
      return part.source.type === "base64"
        ? { type: "input_audio", input_audio: { data: part.source.data, format: part.format ?? part.source.mediaType.replace(/^audio\//, "") } }
        : undefined;
    case "provider":
      return part.provider === "openai" ? { ...part.data } : undefined;
    case "reasoning":
      return undefined;
  }
}
