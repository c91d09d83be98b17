import type { ContextConfig } from "../config";
import { sharedCounter, type TiktokenCounter } from "./counter";
import { DEFAULT_ENCODING, isEncodingName, type EncodingName } from "./encoding-names";
import { isMediaRule, type MediaRule } from "./media";

/** The encoding a context counts with: `extra.token_encoding`, else cl100k_base. */
export function resolveEncoding(config: ContextConfig, fallback: EncodingName = DEFAULT_ENCODING): EncodingName {
  const configured = config.extra.token_encoding;
  return isEncodingName(configured) ? configured : fallback;
}

/** Whose rule counts a context's images, audio and documents: `extra.token_media_rule`, else OpenAI's. */
export function resolveMediaRule(config: ContextConfig): MediaRule {
  const configured = config.extra.token_media_rule;
  return isMediaRule(configured) ? configured : "openai";
}

/** The shared counter a context counts with: its encoding and media rule. */
export function resolveCounter(config: ContextConfig, fallback: EncodingName = DEFAULT_ENCODING): TiktokenCounter {
  return sharedCounter(resolveEncoding(config, fallback), resolveMediaRule(config));
}
