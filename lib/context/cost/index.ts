export { priceUsage, promptTokensOfUsage, addUsageTokens, ZERO_USAGE_TOKENS } from "./price";
export { requestSegments, withUnseenPrefix, type SegmentOptions } from "./segments";
export {
  createCacheState,
  predictCall,
  predictSession,
  prefixHashes,
  prefixHashWork,
  prefixTokens,
  cacheableTokens,
  type CacheState,
  type PrefixHashes,
} from "./cache-model";
export { explainCacheBreak, formatGap, systemDiff, type CacheBreakInput } from "./cache-break";
export { TTL_SECONDS } from "./types";
export type * from "./types";
