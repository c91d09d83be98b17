import type { CacheBreakReason } from "@/lib/context/light";

/** What each reason the cache broke reads as, for people. */
export const CACHE_BREAK_LABELS: Readonly<Record<CacheBreakReason, string>> = {
  "idle-gap": "idle past the cache's lifetime",
  "system-changed": "system prompt changed",
  "tools-changed": "tool list changed",
  "tools-reordered": "tools reordered",
  "message-edited": "an earlier message changed",
  "under-minimum": "prefix under the cache minimum",
  "breakpoint-moved": "cache breakpoint moved",
  unexplained: "no cause found",
};
