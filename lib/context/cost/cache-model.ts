import { hashPair } from "../hash";
import { TTL_SECONDS, type CacheCall, type CachePrediction, type CacheRules, type CacheSegment, type CacheTtl } from "./types";

/** One cached prefix: its TTL and when it expires unless used again. */
interface CacheEntry {
  ttl: CacheTtl;
  /** Epoch milliseconds; null when the calls carry no time. */
  expiresAt: number | null;
}

/** What a provider's cache holds for one session: cached prefixes by the hash of their segments (CC-7). */
export type CacheState = Map<string, CacheEntry>;

/** Each cache's last request with its prefix hashes: where the next request's hashing starts (CC-14). */
const lastRequests = new WeakMap<CacheState, PrefixHashes>();

/** An empty cache: where a session's first call starts. */
export function createCacheState(): CacheState {
  return new Map();
}

/** A request's segments and the hash of each of its prefixes. */
export interface PrefixHashes {
  segments: readonly CacheSegment[];
  hashes: string[];
}

/** Prefix hashes computed so far, per process (or worker): tests count them, never time them (CC-14). */
let hashedPrefixes = 0;

/** How many prefix hashes have been computed since the engine was loaded; subtract two to get a run's work (CC-14). */
export function prefixHashWork(): number {
  return hashedPrefixes;
}

/**
 * The hash of each prefix: segments 0..i, by their keys. With the hashes of
 * an earlier request (`known`), the prefix both share (the same keys) is
 * taken from them and only the rest is hashed (CC-14): a session's next
 * request mostly repeats the last one.
 */
export function prefixHashes(segments: readonly CacheSegment[], known?: PrefixHashes): string[] {
  const hashes: string[] = [];
  if (known !== undefined) {
    const shared = Math.min(segments.length, known.segments.length);
    while (hashes.length < shared && known.segments[hashes.length].key === segments[hashes.length].key) hashes.push(known.hashes[hashes.length]);
  }
  let hash = hashes.at(-1) ?? "";
  for (let index = hashes.length; index < segments.length; index += 1) {
    const text = `${hash}|${segments[index].key}`;
    hash = hashPair(text, 3, 4);
    hashes.push(hash);
    hashedPrefixes += 1;
  }
  return hashes;
}

/** Tokens up to the end of each segment. */
export function prefixTokens(segments: readonly CacheSegment[]): number[] {
  const ends: number[] = [];
  let total = 0;
  for (const segment of segments) {
    total += segment.tokens;
    ends.push(total);
  }
  return ends;
}

function alive(entry: CacheEntry | undefined, at: number | null): entry is CacheEntry {
  return entry !== undefined && (entry.expiresAt === null || at === null || at <= entry.expiresAt);
}

function entryFor(ttl: CacheTtl, at: number | null): CacheEntry {
  return { ttl, expiresAt: at === null ? null : at + TTL_SECONDS[ttl] * 1000 };
}

/** CC8: what an automatic cache reports of a matched prefix: nothing under the minimum, else whole increments past it. */
export function cacheableTokens(tokens: number, rules: Pick<CacheRules, "minimumTokens" | "increment">): number {
  if (tokens < rules.minimumTokens) return 0;
  const step = Math.max(1, rules.increment);
  return rules.minimumTokens + Math.floor((tokens - rules.minimumTokens) / step) * step;
}

function shorter(a: CacheTtl | null, b: CacheTtl): CacheTtl {
  return a === null || TTL_SECONDS[b] < TTL_SECONDS[a] ? b : a;
}

const NOTHING = (prompt: number): CachePrediction => ({
  promptTokens: prompt,
  cacheRead: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
  input: prompt,
  cachedAfter: 0,
  ttl: null,
});

/**
 * CC-7: a request that marks breakpoints reads the longest live prefix ending
 * at a segment boundary within `lookback` segments before one of its marks,
 * and writes every marked prefix at least the minimum long past it, each part
 * at the TTL of the mark that ends it. What it reads is refreshed.
 */
function predictMarked(call: CacheCall, state: CacheState, hashes: string[], ends: number[]): CachePrediction {
  const { rules, at, segments } = call;
  const prompt = ends.at(-1) ?? 0;
  const marks = segments.flatMap((segment, index) => (segment.breakpoint === undefined ? [] : [index]));
  if (marks.length === 0) return NOTHING(prompt);
  const lookback = rules.lookback ?? segments.length;
  let hit = -1;
  for (const mark of marks) {
    for (let index = mark; index >= Math.max(0, mark - lookback); index -= 1) {
      if (index <= hit) break;
      if (alive(state.get(hashes[index]), at)) {
        hit = index;
        break;
      }
    }
  }
  const read = hit >= 0 ? ends[hit] : 0;
  let ttl: CacheTtl | null = null;
  for (let index = 0; index <= hit; index += 1) {
    const entry = state.get(hashes[index]);
    if (alive(entry, at)) {
      state.set(hashes[index], entryFor(entry.ttl, at));
      ttl = shorter(ttl, entry.ttl);
    }
  }
  const written = { "5m": 0, "1h": 0, "24h": 0 };
  let cachedAfter = read;
  for (const mark of marks) {
    const breakpoint = segments[mark].breakpoint ?? rules.ttls[0];
    if (mark <= hit || ends[mark] < rules.minimumTokens) continue;
    written[breakpoint] += ends[mark] - cachedAfter;
    cachedAfter = ends[mark];
    state.set(hashes[mark], entryFor(breakpoint, at));
    ttl = shorter(ttl, breakpoint);
  }
  const billed = rules.billsWrites;
  const cacheWrite5m = billed ? written["5m"] : 0;
  const cacheWrite1h = billed ? written["1h"] + written["24h"] : 0;
  return { promptTokens: prompt, cacheRead: read, cacheWrite5m, cacheWrite1h, input: prompt - read - cacheWrite5m - cacheWrite1h, cachedAfter, ttl };
}

/**
 * CC-8: an automatic cache reads the longest live prefix, rounded down to the
 * minimum plus whole increments, and keeps every prefix of the prompt at
 * least the minimum long for the provider's default TTL.
 */
function predictAutomatic(call: CacheCall, state: CacheState, hashes: string[], ends: number[]): CachePrediction {
  const { rules, at } = call;
  const prompt = ends.at(-1) ?? 0;
  if (prompt < rules.minimumTokens) return NOTHING(prompt);
  let matched = 0;
  for (let index = hashes.length - 1; index >= 0; index -= 1) {
    if (alive(state.get(hashes[index]), at)) {
      matched = ends[index];
      break;
    }
  }
  const read = cacheableTokens(matched, rules);
  const ttl = rules.ttls[0] ?? "5m";
  hashes.forEach((hash, index) => {
    if (ends[index] >= rules.minimumTokens) state.set(hash, entryFor(ttl, at));
  });
  const cachedAfter = cacheableTokens(prompt, rules);
  const written = rules.billsWrites ? Math.max(0, cachedAfter - read) : 0;
  const cacheWrite5m = ttl === "5m" ? written : 0;
  const cacheWrite1h = written - cacheWrite5m;
  return { promptTokens: prompt, cacheRead: read, cacheWrite5m, cacheWrite1h, input: prompt - read - written, cachedAfter, ttl };
}

/**
 * Predicts one call's cache read and writes from its request against what
 * the session's earlier calls left in `state`, and updates `state` (CC-7, CC-8).
 * @example const state = createCacheState(); const first = predictCall(call, state);
 */
export function predictCall(call: CacheCall, state: CacheState): CachePrediction {
  const hashes = prefixHashes(call.segments, lastRequests.get(state));
  lastRequests.set(state, { segments: call.segments, hashes });
  const ends = prefixTokens(call.segments);
  if (call.rules.mode === "breakpoints") return predictMarked(call, state, hashes, ends);
  if (call.rules.mode === "automatic") return predictAutomatic(call, state, hashes, ends);
  return NOTHING(ends.at(-1) ?? 0);
}

/** Predicts a session's calls in order, each against the ones before it. */
export function predictSession(calls: readonly CacheCall[]): CachePrediction[] {
  const state = createCacheState();
  return calls.map((call) => predictCall(call, state));
}
