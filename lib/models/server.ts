import "server-only";
import { getCustomModels, type Database } from "@/lib/db";
import { mergeCatalogue } from "./lookup";
import { readCustomEntry } from "./schema";
import type { ModelEntry } from "./types";

/**
 * The catalogue read once per database client and kept until a user saves or
 * removes an entry (`forgetCatalogue`): the proxy resolves a model on every
 * call, users edit rarely, and a read that depended on a clock would make the
 * work of a call depend on when it ran. On `globalThis`: the app server's
 * bundle (the proxy) and Next's route bundles (which save entries) each load
 * this module, and must share one cache for a save to reach the proxy.
 */
const CATALOGUE_KEY = Symbol.for("context-lab.models.catalogue");
const globalForCatalogue = globalThis as typeof globalThis & { [CATALOGUE_KEY]?: WeakMap<Database, Promise<ModelEntry[]>> };
const cached = (globalForCatalogue[CATALOGUE_KEY] ??= new WeakMap());

/** The catalogue with the users' entries over the built-in ones. */
export function loadCatalogue(db: Database): Promise<ModelEntry[]> {
  let entries = cached.get(db);
  if (!entries) {
    entries = getCustomModels(db).then((rows) => mergeCatalogue(rows.flatMap((row) => readCustomEntry(row.id, row.entry, row.updatedAt) ?? [])));
    // A failed read is tried again next time.
    entries.catch(() => cached.delete(db));
    cached.set(db, entries);
  }
  return entries;
}

/** After a user saved or removed an entry: the next read sees it. */
export function forgetCatalogue(db: Database): void {
  cached.delete(db);
}
