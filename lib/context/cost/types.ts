// The shapes of pricing and of the prompt-cache model (CC-1–CC-12 in lib/cost/README.md).
// Plain data: they cross from the server to the page and into a Web Worker.

/** How long a provider keeps a cached prefix after its last use. */
export type CacheTtl = "5m" | "1h" | "24h";

/** Seconds in each TTL. */
export const TTL_SECONDS: Readonly<Record<CacheTtl, number>> = Object.freeze({ "5m": 300, "1h": 3600, "24h": 86_400 });

/** Prices of one tier, US dollars per million tokens; an absent figure falls back as CC2 says. */
export interface TierPrices {
  input: number;
  output: number;
  /** Input tokens read from the prompt cache; the input price when absent. */
  cachedInput?: number;
  /** Input tokens written to a cache that lives 5 minutes; the input price when absent. */
  cacheWrite?: number;
  /** Input tokens written to a cache that lives 1 hour; the 5-minute write price when absent. */
  cacheWrite1h?: number;
  /** Reasoning tokens, where a provider prices them apart from output; the output price when absent. */
  reasoning?: number;
}

/** A tier that applies to the whole call once its prompt holds more than `above` tokens (CC-3). */
export interface LongContextPrices extends TierPrices {
  above: number;
}

/** US dollars per million tokens: a model's prices as plain data (the app reads them from its catalogue). */
export interface TokenPrices extends TierPrices {
  longContext?: LongContextPrices;
}

/** The tokens of one call by how they are billed: the shape of a reported usage without the provider's object. */
export interface UsageTokens {
  /** Input tokens neither read from nor written to the cache. */
  input: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  /** Every output token, reasoning included. */
  output: number;
  /** Of `output`, the reasoning tokens. */
  reasoning: number;
}

/** What one call costs, in US dollars, part by part (CC-1); `output` leaves the reasoning tokens to `reasoning`. */
export interface UsageCost {
  input: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  output: number;
  reasoning: number;
  total: number;
  /** True when the long-context tier priced the call. */
  longContext: boolean;
}

/**
 * How a provider caches prompts (CC-5): `breakpoints` caches the prefixes a
 * request marks (Anthropic's `cache_control`), `automatic` every prompt long
 * enough (OpenAI, Gemini's implicit cache, DeepSeek), `none` nothing.
 */
export type CacheMode = "breakpoints" | "automatic" | "none";

/** A model's prompt-cache rules (CC-5). */
export interface CacheRules {
  mode: CacheMode;
  /** The shortest prefix the provider caches, in tokens. */
  minimumTokens: number;
  /** Cached prefixes grow past the minimum in steps of this many tokens (OpenAI: 128); 1 for any length. */
  increment: number;
  /** The lifetimes the provider offers; the first is what an unmarked or automatic write gets. */
  ttls: CacheTtl[];
  /** True when writes are billed apart from input (Anthropic); automatic caches bill them as input. */
  billsWrites: boolean;
  /** Block boundaries looked back from a breakpoint for an earlier cached prefix (Anthropic: 20). */
  lookback?: number;
}

/** Which part of a request a segment is, in the order providers build the cached prefix (CC-6). */
export type SegmentSection = "tools" | "system" | "messages" | "unseen";

/** One piece of a request's prefix: a tool definition, a system message, a message (CC-6). */
export interface CacheSegment {
  section: SegmentSection;
  /** Its index in the request: in `tools`, or in the request's messages. */
  index: number;
  /** Equal keys: the provider sees the same bytes. */
  key: string;
  /** Equal loose keys: the same content, perhaps spelled differently (JSON re-serialised). */
  looseKey: string;
  tokens: number;
  /** A cache mark on it: a breakpoint with its TTL. */
  breakpoint?: CacheTtl;
  /** A tool's name, a message's role. */
  label: string;
  /** A system message's text, for the diff of a changed system prompt. */
  text?: string;
}

/** One call of a session as the cache model reads it. */
export interface CacheCall {
  segments: readonly CacheSegment[];
  /** When the call was made, epoch milliseconds; null when unknown (no time passes). */
  at: number | null;
  rules: CacheRules;
  /** The agent compacted its history just before this call (CC-9). */
  compacted?: boolean;
}

/** Where two requests first differ (CC-9). */
export interface CachePosition {
  section: SegmentSection;
  /** Index in that section of this request (a message index for `messages`). */
  index: number;
  /** Tokens of this request before the difference. */
  tokens: number;
}

/** Why a call read less from the cache than the previous call left in it (CC-9). */
export type CacheBreakReason =
  | "idle-gap"
  | "system-changed"
  | "tools-changed"
  | "tools-reordered"
  | "message-edited"
  | "under-minimum"
  | "breakpoint-moved"
  | "unexplained";

export interface CacheBreak {
  reason: CacheBreakReason;
  /** For people: what changed, or the gap against the TTL. */
  detail: string;
  position: CachePosition | null;
}

/** What the cache model predicts for one call (CC-7, CC-8). */
export interface CachePrediction {
  /** Prompt tokens, as the segments add up. */
  promptTokens: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  /** The rest of the prompt: neither read nor billed as written. */
  input: number;
  /** Tokens the cache holds for this session after the call (what the next call can read). */
  cachedAfter: number;
  /** The shortest TTL of what the call left cached; null when it cached nothing. */
  ttl: CacheTtl | null;
}
