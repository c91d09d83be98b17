import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Context } from "./context";
import { ContextError } from "./errors";
import { providerUsageArbitrary } from "./test-support/arbitraries";
import { toUsage, ZERO_USAGE, type UsageInput } from "./usage";

function refusal(usage: unknown): ContextError {
  try {
    toUsage(usage as UsageInput);
  } catch (error) {
    if (ContextError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(usage)}`);
}

describe("toUsage / Context.addTokens", () => {
  it("[E-U1] reads OpenAI Chat Completions' usage, cached prompt tokens included", () => {
    const usage = {
      prompt_tokens: 500,
      completion_tokens: 20,
      total_tokens: 520,
      prompt_tokens_details: { cached_tokens: 384, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    };
    expect(toUsage(usage)).toEqual({ promptTokens: 500, outputTokens: 20, totalTokens: 520, cachedPromptTokens: 384, cacheWriteTokens: 0 });
    const ctx = new Context("task");
    ctx.addTokens({ prompt_tokens: 500, completion_tokens: 20 });
    expect(ctx.tokenUsage).toEqual({ ...ZERO_USAGE, promptTokens: 500, outputTokens: 20, totalTokens: 520 });
  });

  it("[E-U1] reads Anthropic's usage: cache reads and writes are prompt tokens too", () => {
    const usage = {
      input_tokens: 12,
      output_tokens: 40,
      cache_read_input_tokens: 2_000,
      cache_creation_input_tokens: 300,
      cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 0 },
      server_tool_use: null,
      service_tier: "standard" as const,
    };
    expect(toUsage(usage)).toEqual({ promptTokens: 2_312, outputTokens: 40, totalTokens: 2_352, cachedPromptTokens: 2_000, cacheWriteTokens: 300 });
    expect(toUsage({ input_tokens: 10, output_tokens: 3 })).toEqual({ ...ZERO_USAGE, promptTokens: 10, outputTokens: 3, totalTokens: 13 });
  });

  it("[E-U1] reads OpenAI Responses' and the AI SDK's usage", () => {
    expect(
      toUsage({
        input_tokens: 80,
        output_tokens: 9,
        total_tokens: 89,
        input_tokens_details: { cached_tokens: 64 },
        output_tokens_details: { reasoning_tokens: 4 },
      }),
    ).toEqual({
      promptTokens: 80,
      outputTokens: 9,
      totalTokens: 89,
      cachedPromptTokens: 64,
      cacheWriteTokens: 0,
    });
    expect(toUsage({ inputTokens: 30, outputTokens: 5, totalTokens: 35, cachedInputTokens: 10 })).toEqual({
      promptTokens: 30,
      outputTokens: 5,
      totalTokens: 35,
      cachedPromptTokens: 10,
      cacheWriteTokens: 0,
    });
  });

  it("[E-U1] refuses a key no usage shape has, naming it, and records nothing", () => {
    const ctx = new Context("task");
    expect(() => ctx.addTokens({ prompt: 500 } as never)).toThrow(ContextError);
    expect(ctx.tokenUsage).toEqual(ZERO_USAGE);
    expect(refusal({ promptTokens: 5, completionTokens: 3 }).where).toBe("usage.completionTokens");
    expect(refusal({ prompt_tokens: 5, input_tokens: 3 }).message).toContain("mixes fields");
  });

  it("[E-U1] refuses counts that are not non-negative numbers, naming the field", () => {
    expect(refusal({ prompt_tokens: "500", completion_tokens: 1 }).where).toBe("usage.prompt_tokens");
    expect(refusal({ promptTokens: -1 }).where).toBe("usage.promptTokens");
    expect(refusal({ prompt_tokens: 1, completion_tokens: 1, prompt_tokens_details: { cached_tokens: Number.NaN } }).where).toBe(
      "usage.prompt_tokens_details.cached_tokens",
    );
    expect(refusal(null).where).toBe("usage");
  });

  it("[E-U1] for any provider usage object, records exactly the provider's prompt, cached and output tokens", () => {
    fc.assert(
      fc.property(providerUsageArbitrary, ({ usage, expected }) => {
        const ctx = new Context("task");
        ctx.addTokens(usage);
        ctx.addTokens(usage);
        expect(ctx.tokenUsage).toEqual({
          promptTokens: 2 * expected.promptTokens,
          outputTokens: 2 * expected.outputTokens,
          totalTokens: 2 * expected.totalTokens,
          cachedPromptTokens: 2 * expected.cachedPromptTokens,
          cacheWriteTokens: 2 * expected.cacheWriteTokens,
        });
      }),
      { numRuns: 300 },
    );
  });

  it("[E-U1] for any usage object with a key no shape has, refuses it", () => {
    fc.assert(
      fc.property(providerUsageArbitrary, fc.constantFrom("prompt", "completion", "tokens", "usage", "input"), ({ usage }, stray) => {
        expect(() => toUsage({ ...usage, [stray]: 1 } as UsageInput)).toThrow(ContextError);
      }),
      { numRuns: 100 },
    );
  });
});
