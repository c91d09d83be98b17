import type { CacheControl } from "@/lib/context/messages";
import { isRecord, type ConversionContext } from "./context";
import type { JsonPath } from "./types";

/** A wire `cache_control` → canonical; undefined when absent, a problem when malformed. */
export function readCacheControl(value: unknown, context: ConversionContext, path: JsonPath, at?: number): CacheControl | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value) || value.type !== "ephemeral") {
    context.fail(path, 'cache_control must be {type: "ephemeral"} (with an optional ttl of "5m" or "1h")', at);
    return undefined;
  }
  if (value.ttl === "5m" || value.ttl === "1h") return { type: "ephemeral", ttl: value.ttl };
  if (value.ttl !== undefined) context.fail([...path, "ttl"], 'a cache_control ttl must be "5m" or "1h"', at);
  return { type: "ephemeral" };
}
