import { describe, expect, it } from "vitest";
import { readReportedUsage } from "./facts";

describe("readReportedUsage", () => {
  it("[SF1] reads Pydantic AI's RequestUsage, whose input_tokens hold the cache reads and writes", () => {
    const raw = {
      input_tokens: 1702,
      cache_write_tokens: 0,
      cache_read_tokens: 1200,
      output_tokens: 41,
      input_audio_tokens: 0,
      cache_audio_read_tokens: 0,
      output_audio_tokens: 0,
      details: { reasoning_tokens: 12 },
    };
    expect(readReportedUsage(raw)).toEqual({ input: 502, cacheRead: 1200, cacheWrite5m: 0, cacheWrite1h: 0, output: 41, reasoning: 12, raw });
  });

  it("[SF1] reads a Pydantic AI cache write out of the input", () => {
    const usage = readReportedUsage({ input_tokens: 1523, cache_write_tokens: 1200, cache_read_tokens: 0, output_tokens: 96, details: {} });
    expect(usage).toMatchObject({ input: 323, cacheRead: 0, cacheWrite5m: 1200, output: 96 });
  });

  it("[SF1] reads Pydantic AI's older request_tokens / response_tokens, with cached tokens in details", () => {
    const usage = readReportedUsage({ requests: 1, request_tokens: 2006, response_tokens: 300, total_tokens: 2306, details: { cached_tokens: 1920 } });
    expect(usage).toMatchObject({ input: 86, cacheRead: 1920, cacheWrite5m: 0, output: 300 });
  });

  it("[SF1] still reads Anthropic's usage, whose input_tokens leave the cache out", () => {
    const usage = readReportedUsage({ input_tokens: 10, cache_read_input_tokens: 900, cache_creation_input_tokens: 50, output_tokens: 5 });
    expect(usage).toMatchObject({ input: 10, cacheRead: 900, cacheWrite5m: 50, output: 5 });
  });
});
