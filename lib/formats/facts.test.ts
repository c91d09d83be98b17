import { describe, expect, it } from "vitest";
import { callFactsMetadata, callFactsOf, isoTime, promptTokensOf, readReportedUsage } from "./facts";

describe("readReportedUsage", () => {
  it("[SF1] reads Anthropic usage, splitting cache writes by TTL", () => {
    const raw = {
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: 900,
      cache_creation_input_tokens: 300,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
    };
    expect(readReportedUsage(raw)).toEqual({ input: 10, cacheRead: 900, cacheWrite5m: 100, cacheWrite1h: 200, output: 5, reasoning: 0, raw });
  });

  it("[SF1] counts an Anthropic cache write without a TTL split as a 5-minute write", () => {
    const usage = readReportedUsage({ input_tokens: 3, output_tokens: 1, cache_creation_input_tokens: 40 });
    expect([usage?.cacheWrite5m, usage?.cacheWrite1h]).toEqual([40, 0]);
  });

  it("[SF1] takes OpenAI Chat's cached tokens out of the input and keeps reasoning inside the output", () => {
    const raw = {
      prompt_tokens: 1200,
      completion_tokens: 80,
      prompt_tokens_details: { cached_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 64 },
    };
    const usage = readReportedUsage(raw);
    expect(usage).toMatchObject({ input: 176, cacheRead: 1024, output: 80, reasoning: 64 });
    expect(promptTokensOf(usage!)).toBe(1200);
  });

  it("[SF1] reads OpenAI Responses, Codex token counts, Gemini and the AI SDK", () => {
    expect(readReportedUsage({ input_tokens: 500, output_tokens: 9, total_tokens: 509, input_tokens_details: { cached_tokens: 384 } })).toMatchObject({
      input: 116,
      cacheRead: 384,
    });
    expect(
      readReportedUsage({ input_tokens: 48297, cached_input_tokens: 47000, output_tokens: 390, reasoning_output_tokens: 100, total_tokens: 48687 }),
    ).toMatchObject({
      input: 1297,
      cacheRead: 47000,
      output: 390,
      reasoning: 100,
    });
    expect(readReportedUsage({ promptTokenCount: 2000, candidatesTokenCount: 30, cachedContentTokenCount: 1500, thoughtsTokenCount: 20 })).toMatchObject({
      input: 500,
      cacheRead: 1500,
      output: 50,
      reasoning: 20,
    });
    expect(readReportedUsage({ inputTokens: 40, outputTokens: 2, cachedInputTokens: 32 })).toMatchObject({ input: 8, cacheRead: 32, output: 2 });
  });

  it("[SF1] returns undefined for what is no usage, and reads a normalised usage as it is", () => {
    expect(readReportedUsage(null)).toBeUndefined();
    expect(readReportedUsage({ tokens: 3 })).toBeUndefined();
    const usage = readReportedUsage({ input_tokens: 1, output_tokens: 1 });
    expect(readReportedUsage(usage)).toBe(usage);
  });
});

describe("call facts in metadata", () => {
  it("[SF2] round-trips through metadata fields", () => {
    const facts = { at: "2026-01-07T11:54:28.650Z", model: "claude-opus-4-5", requestId: "req_1", responseId: "msg_1", stopReason: "tool_use", latencyMs: 812 };
    expect(callFactsOf(callFactsMetadata(facts))).toEqual(facts);
  });

  it("[SF2] reads rows the proxy wrote before: the provider's usage object and finishReason", () => {
    const facts = callFactsOf({
      recorder: "proxy",
      model: "gpt-4o",
      finishReason: "stop",
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    });
    expect(facts).toMatchObject({ model: "gpt-4o", stopReason: "stop", usage: { input: 10, output: 2 } });
    expect(callFactsOf({ recorder: "chat" })).toBeUndefined();
  });

  it("[SF2] reads times given as ISO text or epoch seconds or milliseconds", () => {
    expect(isoTime("2026-02-24T09:51:48.878Z")).toBe("2026-02-24T09:51:48.878Z");
    expect(isoTime(1771926708)).toBe("2026-02-24T09:51:48.000Z");
    expect(isoTime(1771926708878)).toBe("2026-02-24T09:51:48.878Z");
    expect(isoTime("not a time")).toBeUndefined();
  });
});
