/**
 * Token costs of what a message holds besides text (E-M1–F-M7 in lib/formats/SPEC.md):
 * images by each provider's published rule, audio by duration, documents by
 * page where a rule exists. Isomorphic and tokenizer-free: sizes come from the
 * part, else from the image's own header bytes.
 */
import type { AudioPart, ContentPart, DocumentPart, ImagePart } from "../parts";
import { HEADER_BYTES, base64Bytes, imageSizeOf, wavSeconds, type ImageSize } from "./image-size";

/** The published counting rules, one per provider that publishes one. */
export const MEDIA_RULES = ["openai", "anthropic", "gemini"] as const;

/** Whose counting rule applies: the provider of the model the context is for. */
export type MediaRule = (typeof MEDIA_RULES)[number];

const MEDIA_RULE_SET: ReadonlySet<unknown> = new Set<MediaRule>(MEDIA_RULES);

export function isMediaRule(value: unknown): value is MediaRule {
  return MEDIA_RULE_SET.has(value);
}

/** A medium's cost; `approximate` when a default or an estimate stood in for a published rule. */
export interface MediaTokens {
  tokens: number;
  approximate: boolean;
}

/** M5: an image whose size cannot be known (a URL, a file id) is counted as this size. */
export const DEFAULT_IMAGE_SIZE: ImageSize = { width: 1024, height: 1024 };

/** M5: audio whose length cannot be known is counted as this many seconds. */
export const DEFAULT_AUDIO_SECONDS = 30;

/** The image's size: stated on the part, else read from its base64 header. */
export function imageSize(part: ImagePart): ImageSize | undefined {
  if (part.width !== undefined && part.height !== undefined) return { width: part.width, height: part.height };
  if (part.source.type !== "base64") return undefined;
  return imageSizeOf(base64Bytes(part.source.data, HEADER_BYTES));
}

/** M1: OpenAI's tile rule: low detail 85; else fit 2048², shortest side to 768, 170 per 512-px tile plus 85. */
export function openAIImageTokens(size: ImageSize, detail: ImagePart["detail"]): number {
  if (detail === "low") return 85;
  let { width, height } = size;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const shortest = Math.min(width, height);
  if (shortest > 768) {
    width *= 768 / shortest;
    height *= 768 / shortest;
  }
  return 170 * Math.ceil(width / 512) * Math.ceil(height / 512) + 85;
}

/** M2: Anthropic's rule: resized to a long edge of at most 1568 px and about 1600 tokens, then width × height / 750. */
export function anthropicImageTokens(size: ImageSize): number {
  const { width, height } = size;
  const scale = Math.min(1, 1568 / Math.max(width, height), Math.sqrt((1600 * 750) / (width * height)));
  return Math.ceil((Math.floor(width * scale) * Math.floor(height * scale)) / 750);
}

/** M3: Gemini's rule: 258 for an image at most 384 px both ways, else 258 per 768 × 768 tile. */
export function geminiImageTokens(size: ImageSize): number {
  if (size.width <= 384 && size.height <= 384) return 258;
  return 258 * Math.ceil(size.width / 768) * Math.ceil(size.height / 768);
}

/** An image's tokens by `rule`. */
export function imageTokens(part: ImagePart, rule: MediaRule): MediaTokens {
  const known = imageSize(part);
  const size = known !== undefined && known.width > 0 && known.height > 0 ? known : DEFAULT_IMAGE_SIZE;
  const approximate = size === DEFAULT_IMAGE_SIZE && !(rule === "openai" && part.detail === "low");
  if (rule === "anthropic") return { tokens: anthropicImageTokens(size), approximate };
  if (rule === "gemini") return { tokens: geminiImageTokens(size), approximate };
  return { tokens: openAIImageTokens(size, part.detail), approximate };
}

/** Tokens per second of audio: Gemini publishes 32 (F-M4); OpenAI's audio models come to about 10. */
const AUDIO_TOKENS_PER_SECOND: Record<MediaRule, number> = { gemini: 32, openai: 10, anthropic: 10 };

/** The audio's length: stated, else read from a WAV header. */
export function audioSeconds(part: AudioPart): number | undefined {
  if (part.seconds !== undefined) return part.seconds;
  return part.source.type === "base64" ? wavSeconds(part.source.data) : undefined;
}

/** M4: audio by duration; exact for Gemini when the length is known, an estimate otherwise. */
export function audioTokens(part: AudioPart, rule: MediaRule): MediaTokens {
  const seconds = audioSeconds(part);
  const tokens = Math.ceil((seconds ?? DEFAULT_AUDIO_SECONDS) * AUDIO_TOKENS_PER_SECOND[rule]);
  return { tokens, approximate: seconds === undefined || rule !== "gemini" };
}

/** Per page of a PDF: Gemini publishes 258 (F-M6); Anthropic and OpenAI send text and an image of each page, about 1,500. */
const PAGE_TOKENS: Record<MediaRule, number> = { gemini: 258, openai: 1500, anthropic: 1500 };

/** Pages of a base64 PDF, by its page objects; undefined for other data. */
export function pdfPages(part: DocumentPart): number | undefined {
  if (part.pages !== undefined) return part.pages;
  if (part.source.type !== "base64" || part.source.mediaType !== "application/pdf") return undefined;
  const text = new TextDecoder("latin1").decode(base64Bytes(part.source.data, part.source.data.length));
  const pages = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  return pages > 0 ? pages : undefined;
}

/**
 * F-M6: a document's tokens. Text sources are their text's tokens (`countText`);
 * PDFs are counted by page (one page when the count cannot be read).
 */
export function documentTokens(part: DocumentPart, rule: MediaRule, countText: (text: string) => number): MediaTokens {
  if (part.source.type === "text") return { tokens: countText(part.source.text), approximate: false };
  const pages = pdfPages(part);
  return { tokens: (pages ?? 1) * PAGE_TOKENS[rule], approximate: pages === undefined || rule !== "gemini" };
}

/** One part's tokens beyond the message's `content` (F-M7); text parts are in `content` already and cost nothing here. */
export function partTokens(part: ContentPart, rule: MediaRule, countText: (text: string) => number): MediaTokens {
  switch (part.type) {
    case "text":
      return { tokens: 0, approximate: false };
    case "image":
      return imageTokens(part, rule);
    case "audio":
      return audioTokens(part, rule);
    case "document":
      return documentTokens(part, rule, countText);
    case "reasoning":
      return { tokens: countText(part.text) + (part.summary ?? []).reduce((sum, summary) => sum + countText(summary), 0), approximate: false };
    case "refusal":
      return { tokens: countText(part.text), approximate: false };
    case "provider":
      // A provider's own blocks (search results, code runs) are billed as it renders them; their JSON is close.
      return { tokens: countText(JSON.stringify(part.data)), approximate: true };
  }
}
