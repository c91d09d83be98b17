import { describe, expect, it } from "vitest";
import type { CacheRules, TokenPrices } from "../cost/types";
import type { Message } from "../messages";
import { presetPolicy } from "./presets";
import { replayConversation } from "./replay";

const SONNET: TokenPrices = { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 };
const breakpoints = (minimumTokens: number): CacheRules => ({
  mode: "breakpoints",
  minimumTokens,
  increment: 1,
  ttls: ["5m", "1h"],
  billsWrites: true,
  lookback: 20,
});

const SYSTEM = Array.from({ length: 150 }, (_, index) => `Rule ${index + 1}: confirm the traveller's dates, fares and seat before booking.`).join("\n");
const CONVERSATION: Message[] = [
  { role: "system", content: SYSTEM },
  { role: "user", content: "A flight to Lisbon?" },
  { role: "assistant", content: "Friday at 9." },
  { role: "user", content: "And back on Sunday?" },
  { role: "assistant", content: "Sunday at 18." },
  { role: "user", content: "Book both." },
  { role: "assistant", content: "Booked." },
];

const replay = (cache: CacheRules | null, cacheTtl?: "5m" | "1h") =>
  replayConversation({ messages: CONVERSATION, policy: presetPolicy("raw"), prices: SONNET, cache, ...(cacheTtl ? { cacheTtl } : {}) });

describe("replay priced with the cache model", () => {
  it("[CC-13][CC-7][E-RP6] with cache rules, calls read and write what the model predicts, writes at their price; without, the shared prefix is read", async () => {
    const shared = await replay(null);
    const modelled = await replay(breakpoints(1024));
    expect(shared.calls[1].cache.cachedTokens).toBeGreaterThan(0);
    expect(shared.calls[0].cache.predicted).toBeUndefined();
    const [first, second, third] = modelled.calls.map((call) => call.cache.predicted!);
    // Each call reads what the one before cached and writes what it added; the reply priming is never cached.
    expect(first.cacheRead).toBe(0);
    expect(second.cacheRead).toBe(first.cacheWrite);
    expect(third.cacheRead).toBe(second.cacheRead + second.cacheWrite);
    expect(modelled.calls[0].tokens.total - first.cacheWrite).toBeLessThan(10);
    expect(modelled.calls[0].cost!.cacheWrite).toBeCloseTo((first.cacheWrite * 3.75) / 1_000_000, 10);
    expect(modelled.totals.cost!.total).toBeGreaterThan(shared.totals.cost!.total);
  });

  it("[CC-13][CC-7] a conversation under the model's minimum reads nothing from the cache, however much it shares", async () => {
    const modelled = await replay(breakpoints(100_000));
    expect(modelled.calls.every((call) => call.cache.predicted?.cacheRead === 0 && call.cache.predicted.cacheWrite === 0)).toBe(true);
    expect(modelled.calls[2].cost!.cachedInput).toBe(0);
  });

  it("[CC-13] a what-if of 1-hour writes costs each write 2× the input price instead of 1.25×", async () => {
    const fiveMinutes = await replay(breakpoints(1024), "5m");
    const hour = await replay(breakpoints(1024), "1h");
    expect(hour.calls[0].cost!.cacheWrite / fiveMinutes.calls[0].cost!.cacheWrite).toBeCloseTo(6 / 3.75, 10);
  });
});
