// Images and files of AI SDK messages ↔ canonical media parts, so the policy
// counts them by the model's rule (E-T6) and a rewritten message keeps them.
import type { ContentPart, MediaSource } from "@/lib/context";
import { parseDataUrl } from "@/lib/formats";
import type { SdkForm, SdkPart } from "./messages";

/** An `image` or `file` part (`ModelMessage`), or a prompt's `file` part. */
export interface SdkMediaPart extends SdkPart {
  type: string;
  image?: unknown;
  data?: unknown;
  mediaType?: string;
  filename?: string;
}

/** Bytes as base64, without Node's Buffer. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}

function sourceOf(data: unknown, mediaType: string): MediaSource {
  if (data instanceof URL) return { type: "url", url: data.href, mediaType };
  if (data instanceof Uint8Array) return { type: "base64", mediaType, data: bytesToBase64(data) };
  if (data instanceof ArrayBuffer) return { type: "base64", mediaType, data: bytesToBase64(new Uint8Array(data)) };
  const text = String(data ?? "");
  const inline = text.startsWith("data:") ? parseDataUrl(text) : undefined;
  if (inline) return { type: "base64", ...inline };
  if (/^https?:\/\//.test(text)) return { type: "url", url: text, mediaType };
  return { type: "base64", mediaType, data: text };
}

/** A canonical part for an image or file; a part of another kind is carried as text of its JSON, so it is counted and not lost. */
export function mediaPartOf(part: SdkMediaPart): ContentPart {
  if (part.type === "image" || part.type === "file") {
    const mediaType = part.mediaType ?? (part.type === "image" ? "image/png" : "application/octet-stream");
    const source = sourceOf(part.type === "image" ? part.image : part.data, mediaType);
    if (part.type === "image" || mediaType.startsWith("image/")) return { type: "image", source };
    return { type: "document", source, ...(part.filename ? { title: part.filename } : {}) };
  }
  return { type: "text", text: JSON.stringify(part) };
}

/** The AI SDK part of a canonical media part (a prompt holds files only); null for parts an AI SDK user message cannot hold. */
export function sdkMediaPart(part: ContentPart, form: SdkForm): SdkMediaPart | null {
  if (part.type !== "image" && part.type !== "document") return null;
  const { source } = part;
  const mediaType = source.mediaType ?? (part.type === "image" ? "image/png" : "application/octet-stream");
  const data = source.type === "url" ? new URL(source.url) : source.type === "base64" ? source.data : null;
  if (data === null) return null;
  if (part.type === "image" && form === "model") return { type: "image", image: data, mediaType };
  return { type: "file", data, mediaType, ...(part.type === "document" && part.title ? { filename: part.title } : {}) };
}
