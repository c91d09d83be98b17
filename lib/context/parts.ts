// What a message holds besides its text: the typed parts of a canonical
// message. Providers' wire formats (OpenAI Chat and Responses, Anthropic
// Messages, Gemini) convert to and from these (lib/formats); the engine reads
// only what it needs (text, and a medium's size for its token cost).

/** A prompt-cache breakpoint: Anthropic's `cache_control`, kept wherever a format has one. */
export interface CacheControl {
  type: "ephemeral";
  ttl?: "5m" | "1h";
}

/** Provider fields the canonical form has no place for, by provider: `{ anthropic: { ... } }`. Converters put them back. */
export type ProviderExtras = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** The providers whose wire formats the converters speak. */
export type ProviderName = "openai" | "anthropic" | "gemini";

/**
 * Where a medium's bytes are. Opaque to the engine: converters carry it whole.
 * `mediaType` is the MIME type when the source states it.
 */
export type MediaSource =
  | { type: "url"; url: string; mediaType?: string }
  | { type: "base64"; mediaType: string; data: string }
  | { type: "file"; fileId: string; mediaType?: string }
  | { type: "text"; text: string; mediaType?: string };

/** Fields every part may carry. */
interface PartBase {
  /** Provider fields of this part without a canonical place (citations, annotations, a Gemini thought signature). */
  extras?: ProviderExtras;
}

/** Text, in order among a message's other parts. */
export interface TextPart extends PartBase {
  type: "text";
  text: string;
  cacheControl?: CacheControl;
}

/** An image; `width`/`height` in pixels when the source states them (else decoded from the data when counted). */
export interface ImagePart extends PartBase {
  type: "image";
  source: MediaSource;
  detail?: "auto" | "low" | "high";
  width?: number;
  height?: number;
  cacheControl?: CacheControl;
}

/** Audio input or output; `transcript` is what a model said in it. */
export interface AudioPart extends PartBase {
  type: "audio";
  source: MediaSource;
  /** The encoding as the wire names it (`wav`, `mp3`). */
  format?: string;
  seconds?: number;
  transcript?: string;
  cacheControl?: CacheControl;
}

/** A document or file (PDF, plain text...); `title` is its title or file name. */
export interface DocumentPart extends PartBase {
  type: "document";
  source: MediaSource;
  title?: string;
  pages?: number;
  cacheControl?: CacheControl;
}

/**
 * A model's reasoning: Anthropic `thinking`/`redacted_thinking`, OpenAI
 * Responses `reasoning` items, Gemini thought parts. Signatures and
 * encrypted or redacted content are opaque and sent back exactly.
 */
export interface ReasoningPart extends PartBase {
  type: "reasoning";
  /** The visible thinking ("" when only a summary or opaque content came). */
  text: string;
  /** OpenAI Responses reasoning summaries, one entry each. */
  summary?: string[];
  /** Anthropic's `signature`, Gemini's `thoughtSignature`. */
  signature?: string;
  /** Anthropic `redacted_thinking.data`. */
  redacted?: string;
  /** OpenAI Responses `encrypted_content`. */
  encrypted?: string;
  /** The provider's id of the item (OpenAI Responses `rs_...`). */
  id?: string;
}

/** A model's refusal (OpenAI `refusal`). */
export interface RefusalPart extends PartBase {
  type: "refusal";
  text: string;
}

/**
 * Content a provider wrote that has no canonical type, kept exactly as sent:
 * tools the provider ran itself (Anthropic `server_tool_use` and its
 * `web_search_tool_result`, OpenAI Responses `web_search_call`, Gemini
 * `executableCode`) and blocks of kinds the converters do not know. They are
 * not canonical tool calls: the call and its result travel inside the
 * provider's own turn, so the engine's tool pairing never sees them.
 */
export interface ProviderPart extends PartBase {
  type: "provider";
  provider: ProviderName;
  /** The block, item or part exactly as the provider wrote it (its `type` names it; a cache mark stays inside). */
  data: Readonly<Record<string, unknown>>;
}

/** One typed part of a message, in the order the message holds them. */
export type ContentPart = TextPart | ImagePart | AudioPart | DocumentPart | ReasoningPart | RefusalPart | ProviderPart;
