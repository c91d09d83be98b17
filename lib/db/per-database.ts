import { BoundedMap } from "@/lib/context/bounded-map";
import type { Database } from "./client";

/**
 * A bounded map per database client, kept on `globalThis` under `name` (so
 * dev reloads keep one per process): what is remembered between calls
 * (the proxy's lookups and agents' last calls, the recorder's branch states)
 * belongs to the database it was read from or written to.
 * @example const recentOf = perDatabase<StoredResponse>("recent-responses", 1_000)
 */
export function perDatabase<Value>(name: string, size: number, options: { refreshOnRead?: boolean } = {}): (db: Database) => BoundedMap<string, Value> {
  const key = Symbol.for(`context-lab.per-database.${name}`);
  const global = globalThis as typeof globalThis & Record<symbol, WeakMap<object, BoundedMap<string, Value>> | undefined>;
  return (db) => {
    const byDatabase = (global[key] ??= new WeakMap());
    let map = byDatabase.get(db);
    if (!map) {
      map = new BoundedMap(size, options);
      byDatabase.set(db, map);
    }
    return map;
  };
}
