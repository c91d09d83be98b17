import type { ContextConfig } from "../config";
import { DEFAULT_ENCODING, isEncodingName, type EncodingName } from "./encoding-names";

/** The encoding a context counts with: `extra.token_encoding`, else cl100k_base. */
export function resolveEncoding(config: ContextConfig, fallback: EncodingName = DEFAULT_ENCODING): EncodingName {
  const configured = config.extra.token_encoding;
  return isEncodingName(configured) ? configured : fallback;
}
