import { BUILT_IN_MODELS, FALLBACK_MODEL } from "./catalogue";
import type { ModelEntry, ModelMatch } from "./types";

/** Routing prefixes agents and gateways put before a model name (`openai/gpt-4o`, Gemini's `models/...`). */
const ROUTE_PREFIX = /^(?:openai|azure|anthropic|google|gemini|vertex_ai|bedrock|openrouter|models|deepseek|meta-llama|qwen|mistralai)\//;

/** What may follow a known id in a snapshot's name: `gpt-4o-2024-08-06`, `claude-sonnet-4-5@20250929`, `ft:...:org`. */
const SNAPSHOT_SEPARATOR = /^[-@:]/;

export function normalizeModelName(name: string): string {
  let normalized = name.trim().toLowerCase();
  while (ROUTE_PREFIX.test(normalized)) normalized = normalized.replace(ROUTE_PREFIX, "");
  // A fine-tuned model (`ft:gpt-4o-mini-2024-07-18:org::id`) is priced and counted like its base model.
  return normalized.replace(/^ft:/, "");
}

/**
 * The catalogue: user entries over the built-in ones, one per id. A user
 * entry with a built-in id replaces it (keeping the built-in cache rules
 * when it names none); a new id adds a model.
 */
export function mergeCatalogue(custom: readonly ModelEntry[], builtIn: readonly ModelEntry[] = BUILT_IN_MODELS): ModelEntry[] {
  const byId = new Map<string, ModelEntry>();
  for (const entry of builtIn) byId.set(entry.id, entry);
  for (const entry of custom) {
    const builtInEntry = byId.get(entry.id);
    // CC-4: an entry saved before cache rules existed keeps the built-in model's rules rather than its provider's defaults.
    byId.set(entry.id, entry.caching === undefined && builtInEntry?.caching !== undefined ? { ...entry, caching: builtInEntry.caching } : entry);
  }
  return [...byId.values()];
}

/**
 * Resolves a model name: an entry's id or alias exactly, else the longest id
 * or alias the name starts with followed by a snapshot separator (so
 * `gpt-4o-mini-2024-07-18` is gpt-4o-mini, and `gpt-4.5-preview` is not
 * gpt-4), else the fallback entry.
 */
export function findModel(name: string, entries: readonly ModelEntry[] = BUILT_IN_MODELS): ModelMatch {
  const wanted = normalizeModelName(name);
  let best: { entry: ModelEntry; length: number } | undefined;
  for (const entry of entries) {
    for (const candidate of [entry.id, ...(entry.aliases ?? [])]) {
      const known = candidate.toLowerCase();
      if (known === wanted) return { entry, match: "exact" };
      if (wanted.startsWith(known) && SNAPSHOT_SEPARATOR.test(wanted.slice(known.length)) && known.length > (best?.length ?? 0)) {
        best = { entry, length: known.length };
      }
    }
  }
  return best ? { entry: best.entry, match: "prefix" } : { entry: { ...FALLBACK_MODEL, id: wanted || FALLBACK_MODEL.id }, match: "fallback" };
}
