import { describe, expect, it } from "vitest";
import { readReportedUsage } from "./facts";

describe("readReportedUsage", () => {
  it("[SF1] reads Cline's api_req_started usage: input, cache writes and reads apart", () => {
    const raw = { tokensIn: 10, tokensOut: 572, cacheWrites: 3454, cacheReads: 8972, cost: 0.0404235 };
    expect(readReportedUsage(raw)).toEqual({ input: 10, cacheRead: 8972, cacheWrite5m: 3454, cacheWrite1h: 0, output: 572, reasoning: 0, raw });
  });

  it("[SF1] reads Cline's stored message metrics, whose cached tokens count as reads", () => {
    const raw = { prompt: 10, completion: 814, cached: 8972 };
    expect(readReportedUsage(raw)).toEqual({ input: 10, cacheRead: 8972, cacheWrite5m: 0, cacheWrite1h: 0, output: 814, reasoning: 0, raw });
  });

  it("[SF1] reads Gemini CLI's token summary: cached tokens out of the input, thoughts into the output", () => {
    const raw = { input: 6907, output: 82, cached: 4062, thoughts: 247, tool: 0, total: 7236 };
    expect(readReportedUsage(raw)).toEqual({ input: 2845, cacheRead: 4062, cacheWrite5m: 0, cacheWrite1h: 0, output: 329, reasoning: 247, raw });
  });

  it("[SF1] leaves an object with input and output but neither cached nor total unread", () => {
    expect(readReportedUsage({ input: 5, output: 3 })).toBeUndefined();
  });
});
