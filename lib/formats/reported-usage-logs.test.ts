import { describe, expect, it } from "vitest";
import { readReportedUsage } from "./facts";

describe("readReportedUsage: logs' own usage shapes", () => {
  it("[SF1] reads OpenTelemetry gen_ai.usage.* attributes: the input count holds the cache reads and writes", () => {
    const attributes = {
      "gen_ai.usage.input_tokens": 1296,
      "gen_ai.usage.output_tokens": 18,
      "gen_ai.usage.cache_read_input_tokens": 1024,
      "gen_ai.usage.cache_creation_input_tokens": 200,
      "llm.usage.total_tokens": 1314,
    };
    expect(readReportedUsage(attributes)).toEqual({
      input: 72,
      cacheRead: 1024,
      cacheWrite5m: 200,
      cacheWrite1h: 0,
      output: 18,
      reasoning: 0,
      raw: attributes,
    });
  });

  it("[SF1] reads the older prompt/completion attribute names and the conventions' cache_read.input_tokens", () => {
    const usage = readReportedUsage({
      "gen_ai.usage.prompt_tokens": 412,
      "gen_ai.usage.completion_tokens": 27,
      "gen_ai.usage.cache_read.input_tokens": 256,
      "gen_ai.usage.reasoning_tokens": 8,
    });
    expect(usage).toMatchObject({ input: 156, cacheRead: 256, output: 27, reasoning: 8 });
  });

  it("[SF1] takes cache counts that outnumber the input as left out of it", () => {
    expect(readReportedUsage({ "gen_ai.usage.input_tokens": 24, "gen_ai.usage.output_tokens": 3, "gen_ai.usage.cache_read_input_tokens": 900 })).toMatchObject({
      input: 24,
      cacheRead: 900,
    });
  });

  it("[SF1] reads Helicone's row counts, whose prompt_tokens leave out the cache reads and writes", () => {
    const counts = { prompt_tokens: 24, completion_tokens: 41, prompt_cache_read_tokens: 0, prompt_cache_write_tokens: 1480 };
    expect(readReportedUsage(counts)).toEqual({ input: 24, cacheRead: 0, cacheWrite5m: 1480, cacheWrite1h: 0, output: 41, reasoning: 0, raw: counts });
  });
});
