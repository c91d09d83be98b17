/** Gemini parts (`text`, `thought`, `inlineData`, `fileData`) ↔ canonical parts (F-G2 in SPEC.md). */
import type { ContentPart, MediaSource } from "@/lib/context/messages";
import { withExtras } from "../canonical";
import { isRecord, otherFields } from "../context";

/** A field by its camelCase name, or the snake_case one the Python SDK writes. */
export function field(part: Record<string, unknown>, name: string): unknown {
  if (part[name] !== undefined) return part[name];
  return part[name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)];
}

const MEDIA_FIELDS = ["inlineData", "inline_data", "fileData", "file_data"];

/** Canonical media kind by MIME type. */
function mediaPart(source: MediaSource, mediaType: string | undefined): ContentPart {
  if (mediaType?.startsWith("image/")) return { type: "image", source };
  if (mediaType?.startsWith("audio/")) return { type: "audio", source };
  return { type: "document", source };
}

/**
 * A text, thought or media part → a canonical part; null for kinds kept whole
 * (executable code, code results); undefined with `problem` set when broken.
 */
export function readGeminiPart(part: Record<string, unknown>, problem: (field: string, message: string) => void): ContentPart | null | undefined {
  const signature = field(part, "thoughtSignature");
  if (typeof part.text === "string") {
    // A text part's own fields (`thought: false`, a thought signature) stay in its extras.
    if (part.thought !== true) return withPartExtras({ type: "text", text: part.text }, otherFields(part, ["text"]));
    const reasoning: ContentPart = { type: "reasoning", text: part.text };
    if (typeof signature === "string") reasoning.signature = signature;
    return withPartExtras(reasoning, otherFields(part, ["text", "thought", "thoughtSignature", "thought_signature"]));
  }
  const inline = field(part, "inlineData");
  if (inline !== undefined) {
    const mimeType = isRecord(inline) ? field(inline, "mimeType") : undefined;
    if (!isRecord(inline) || typeof inline.data !== "string" || typeof mimeType !== "string")
      return void problem("inlineData", "inlineData needs a string mimeType and data");
    return withPartExtras(mediaPart({ type: "base64", mediaType: mimeType, data: inline.data }, mimeType), otherFields(part, MEDIA_FIELDS));
  }
  const file = field(part, "fileData");
  if (file !== undefined) {
    const uri = isRecord(file) ? field(file, "fileUri") : undefined;
    const mimeType = isRecord(file) ? field(file, "mimeType") : undefined;
    if (!isRecord(file) || typeof uri !== "string") return void problem("fileData", "fileData needs a string fileUri");
    const source: MediaSource = typeof mimeType === "string" ? { type: "url", url: uri, mediaType: mimeType } : { type: "url", url: uri };
    return withPartExtras(mediaPart(source, typeof mimeType === "string" ? mimeType : undefined), otherFields(part, MEDIA_FIELDS));
  }
  return null;
}

function withPartExtras(part: ContentPart, rest: Record<string, unknown> | undefined): ContentPart {
  if (rest !== undefined) part.extras = withExtras(undefined, "gemini", rest);
  return part;
}

/** The MIME type a media part is written with; guessed (and reported) when the source states none. */
export function mimeTypeOf(part: ContentPart & { source: MediaSource }): { mimeType: string; guessed: boolean } {
  const stated = part.source.mediaType;
  if (stated !== undefined) return { mimeType: stated, guessed: false };
  const fallback = part.type === "image" ? "image/jpeg" : part.type === "audio" ? "audio/wav" : "application/pdf";
  return { mimeType: fallback, guessed: true };
}

/** A canonical part → a Gemini part; undefined when Gemini has none (the caller warns). */
export function writeGeminiPart(part: ContentPart): Record<string, unknown> | undefined {
  const extras = part.extras?.gemini ?? {};
  switch (part.type) {
    case "text":
      return { text: part.text, ...extras };
    case "refusal":
      return { text: part.text };
    case "reasoning":
      return {
        text: part.text === "" ? (part.summary ?? []).join("\n\n") : part.text,
        thought: true,
        ...(part.signature === undefined ? {} : { thoughtSignature: part.signature }),
        ...extras,
      };
    case "image":
    case "audio":
    case "document": {
      const { mimeType } = mimeTypeOf(part);
      if (part.source.type === "base64") return { inlineData: { mimeType, data: part.source.data }, ...extras };
      if (part.source.type === "url" || part.source.type === "file") {
        return { fileData: { mimeType, fileUri: part.source.type === "url" ? part.source.url : part.source.fileId }, ...extras };
      }
      return { text: part.source.text };
    }
    case "provider":
      return part.provider === "gemini" ? { ...part.data } : undefined;
  }
}
