import { describe, expect, it } from "vitest";
import { costOfTokens } from "../replay/cost";
import { addUsageTokens, priceUsage, promptTokensOfUsage, ZERO_USAGE_TOKENS } from "./price";
import type { TokenPrices, UsageTokens } from "./types";

const SONNET: TokenPrices = {
  input: 3,
  output: 15,
  cachedInput: 0.3,
  cacheWrite: 3.75,
  cacheWrite1h: 6,
  longContext: { above: 200_000, input: 6, output: 22.5, cachedInput: 0.6, cacheWrite: 7.5, cacheWrite1h: 12 },
};

const usage = (parts: Partial<UsageTokens>): UsageTokens => ({ ...ZERO_USAGE_TOKENS, ...parts });

describe("priceUsage", () => {
  it("[CC-1] prices uncached input, reads, 5-minute and 1-hour writes, output and reasoning apart, and adds them up", () => {
    const cost = priceUsage(usage({ input: 1_000, cacheRead: 100_000, cacheWrite5m: 10_000, cacheWrite1h: 20_000, output: 3_000, reasoning: 1_000 }), {
      ...SONNET,
      reasoning: 20,
    });
    expect(cost.input).toBeCloseTo(0.003, 10);
    expect(cost.cacheRead).toBeCloseTo(0.03, 10);
    expect(cost.cacheWrite5m).toBeCloseTo(0.0375, 10);
    expect(cost.cacheWrite1h).toBeCloseTo(0.12, 10);
    expect(cost.output).toBeCloseTo(0.03, 10);
    expect(cost.reasoning).toBeCloseTo(0.02, 10);
    expect(cost.total).toBeCloseTo(0.003 + 0.03 + 0.0375 + 0.12 + 0.03 + 0.02, 10);
    expect(cost.longContext).toBe(false);
  });

  it("[CC-1] a Claude Code call that wrote its cache for an hour costs 2× the input price on those tokens, not 1.25×", () => {
    const written = usage({ cacheWrite1h: 19_032 });
    expect(priceUsage(written, SONNET).total).toBeCloseTo((19_032 * 6) / 1_000_000, 10);
    expect(priceUsage(written, SONNET).total / priceUsage(usage({ cacheWrite5m: 19_032 }), SONNET).total).toBeCloseTo(1.6, 10);
  });

  it("[CC-2] a missing figure falls back: reads and 5-minute writes to input, 1-hour writes to the 5-minute price, reasoning to output", () => {
    const plain = priceUsage(usage({ input: 1_000_000, cacheRead: 1_000_000, cacheWrite5m: 1_000_000, output: 1_000_000, reasoning: 400_000 }), {
      input: 2,
      output: 8,
    });
    expect([plain.input, plain.cacheRead, plain.cacheWrite5m]).toEqual([2, 2, 2]);
    expect(plain.output + plain.reasoning).toBeCloseTo(8, 10);
    expect(priceUsage(usage({ cacheWrite1h: 1_000_000 }), { input: 2, output: 8, cacheWrite: 2.5 }).cacheWrite1h).toBe(2.5);
  });

  it("[CC-3] a prompt over the long-context threshold prices every part of the call at the tier; at the threshold it does not", () => {
    const over = priceUsage(usage({ input: 1, cacheRead: 150_000, cacheWrite5m: 50_000, output: 1_000 }), SONNET);
    expect(over.longContext).toBe(true);
    expect(over.total).toBeCloseTo((1 * 6 + 150_000 * 0.6 + 50_000 * 7.5 + 1_000 * 22.5) / 1_000_000, 10);
    const at = priceUsage(usage({ cacheRead: 150_000, cacheWrite5m: 50_000 }), SONNET);
    expect(at.longContext).toBe(false);
    expect(promptTokensOfUsage(usage({ input: 1, cacheRead: 2, cacheWrite5m: 3, cacheWrite1h: 4, output: 100 }))).toBe(10);
  });

  it("[CC-1] replay's costs come from the same computation", () => {
    const replayed = costOfTokens({ input: 10_000, cachedInput: 6_000, cacheWrite: 1_000, output: 500 }, SONNET);
    const direct = priceUsage(usage({ input: 3_000, cacheRead: 6_000, cacheWrite5m: 1_000, output: 500 }), SONNET);
    expect(replayed).toEqual({
      input: direct.input,
      cachedInput: direct.cacheRead,
      cacheWrite: direct.cacheWrite5m,
      output: direct.output,
      total: direct.total,
    });
    expect(addUsageTokens(usage({ input: 1, output: 2 }), usage({ input: 3, reasoning: 1 }))).toEqual(usage({ input: 4, output: 2, reasoning: 1 }));
  });
});
