// Usage objects of providers, agent frameworks and logs read into one shape (F-SF1 in SPEC.md).
import { describe, expect, it } from "vitest";
import { promptTokensOfUsage } from "@/lib/context/cost/price";
import { readReportedUsage } from "./reported-usage";

describe("readReportedUsage", () => {
  it("[F-SF1] reads Anthropic usage, splitting cache writes by TTL", () => {
    const raw = {
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: 900,
      cache_creation_input_tokens: 300,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
    };
    expect(readReportedUsage(raw)).toEqual({ input: 10, cacheRead: 900, cacheWrite5m: 100, cacheWrite1h: 200, output: 5, reasoning: 0, raw });
  });

  it("[F-SF1] counts an Anthropic cache write without a TTL split as a 5-minute write", () => {
    const usage = readReportedUsage({ input_tokens: 3, output_tokens: 1, cache_creation_input_tokens: 40 });
    expect([usage?.cacheWrite5m, usage?.cacheWrite1h]).toEqual([40, 0]);
  });

  it("[F-SF1] takes OpenAI Chat's cached tokens out of the input and keeps reasoning inside the output", () => {
    const raw = {
      prompt_tokens: 1200,
      completion_tokens: 80,
      prompt_tokens_details: { cached_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 64 },
    };
    const usage = readReportedUsage(raw);
    expect(usage).toMatchObject({ input: 176, cacheRead: 1024, output: 80, reasoning: 64 });
    expect(promptTokensOfUsage(usage!)).toBe(1200);
  });

  it("[F-SF1] reads OpenAI Responses, Codex token counts, Gemini and the AI SDK", () => {
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

  it("[F-SF1] returns undefined for what is no usage, and reads a normalised usage as it is", () => {
    expect(readReportedUsage(null)).toBeUndefined();
    expect(readReportedUsage({ tokens: 3 })).toBeUndefined();
    const usage = readReportedUsage({ input_tokens: 1, output_tokens: 1 });
    expect(readReportedUsage(usage)).toBe(usage);
  });
});

describe("readReportedUsage of coding agents' own logs", () => {
  it("[F-SF1] reads Cline's api_req_started usage: input, cache writes and reads apart", () => {
    const raw = { tokensIn: 10, tokensOut: 572, cacheWrites: 3454, cacheReads: 8972, cost: 0.0404235 };
    expect(readReportedUsage(raw)).toEqual({ input: 10, cacheRead: 8972, cacheWrite5m: 3454, cacheWrite1h: 0, output: 572, reasoning: 0, raw });
  });

  it("[F-SF1] reads Cline's stored message metrics, whose cached tokens count as reads", () => {
    const raw = { prompt: 10, completion: 814, cached: 8972 };
    expect(readReportedUsage(raw)).toEqual({ input: 10, cacheRead: 8972, cacheWrite5m: 0, cacheWrite1h: 0, output: 814, reasoning: 0, raw });
  });

  it("[F-SF1] reads Gemini CLI's token summary: cached tokens out of the input, thoughts into the output", () => {
    const raw = { input: 6907, output: 82, cached: 4062, thoughts: 247, tool: 0, total: 7236 };
    expect(readReportedUsage(raw)).toEqual({ input: 2845, cacheRead: 4062, cacheWrite5m: 0, cacheWrite1h: 0, output: 329, reasoning: 247, raw });
  });

  it("[F-SF1] leaves an object with input and output but neither cached nor total unread", () => {
    expect(readReportedUsage({ input: 5, output: 3 })).toBeUndefined();
  });
});

describe("readReportedUsage of Pydantic AI", () => {
  it("[F-SF1] reads Pydantic AI's RequestUsage, whose input_tokens hold the cache reads and writes", () => {
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

  it("[F-SF1] reads a Pydantic AI cache write out of the input", () => {
    const usage = readReportedUsage({ input_tokens: 1523, cache_write_tokens: 1200, cache_read_tokens: 0, output_tokens: 96, details: {} });
    expect(usage).toMatchObject({ input: 323, cacheRead: 0, cacheWrite5m: 1200, output: 96 });
  });

  it("[F-SF1] reads Pydantic AI's older request_tokens / response_tokens, with cached tokens in details", () => {
    const usage = readReportedUsage({ requests: 1, request_tokens: 2006, response_tokens: 300, total_tokens: 2306, details: { cached_tokens: 1920 } });
    expect(usage).toMatchObject({ input: 86, cacheRead: 1920, cacheWrite5m: 0, output: 300 });
  });

  it("[F-SF1] still reads Anthropic's usage, whose input_tokens leave the cache out", () => {
    const usage = readReportedUsage({ input_tokens: 10, cache_read_input_tokens: 900, cache_creation_input_tokens: 50, output_tokens: 5 });
    expect(usage).toMatchObject({ input: 10, cacheRead: 900, cacheWrite5m: 50, output: 5 });
  });
});

describe("readReportedUsage, LiteLLM and OpenHands shapes", () => {
  it("[F-SF1] reads LiteLLM's chat usage for an Anthropic model: prompt_tokens counts the cache reads and writes", () => {
    // As OpenHands keeps it in tool_call_metadata.model_response.usage (claude-3-5-sonnet through LiteLLM).
    const raw = {
      completion_tokens: 1142,
      prompt_tokens: 3601,
      total_tokens: 4743,
      completion_tokens_details: null,
      prompt_tokens_details: { audio_tokens: null, cached_tokens: 3435 },
      cache_creation_input_tokens: 160,
      cache_read_input_tokens: 3435,
    };
    expect(readReportedUsage(raw)).toEqual({ input: 6, cacheRead: 3435, cacheWrite5m: 160, cacheWrite1h: 0, output: 1142, reasoning: 0, raw });
  });

  it("[F-SF1] takes the cache write from cache_creation_input_tokens when LiteLLM reports no cached tokens in the details", () => {
    const raw = { completion_tokens: 104, prompt_tokens: 3439, cache_creation_input_tokens: 3435, cache_read_input_tokens: 0 };
    expect(readReportedUsage(raw)).toMatchObject({ input: 4, cacheRead: 0, cacheWrite5m: 3435, output: 104 });
  });

  it("[F-SF1] reads OpenHands' TokenUsage (llm_metrics.token_usages), whose cache fields are cache_read_tokens and cache_write_tokens", () => {
    const raw = {
      model: "claude-3-5-sonnet-20241022",
      prompt_tokens: 5488,
      completion_tokens: 85,
      cache_read_tokens: 4763,
      cache_write_tokens: 719,
      context_window: 200000,
      per_turn_token: 5573,
      response_id: "chatcmpl-51a85fbb",
    };
    expect(readReportedUsage(raw)).toMatchObject({ input: 6, cacheRead: 4763, cacheWrite5m: 719, output: 85 });
  });

  it("[F-SF1] still reads Anthropic's own usage, which has no prompt_tokens", () => {
    expect(readReportedUsage({ input_tokens: 6, output_tokens: 9, cache_read_input_tokens: 3435, cache_creation_input_tokens: 160 })).toMatchObject({
      input: 6,
      cacheRead: 3435,
      cacheWrite5m: 160,
      output: 9,
    });
  });
});

describe("readReportedUsage: logs' own usage shapes", () => {
  it("[F-SF1] reads OpenTelemetry gen_ai.usage.* attributes: the input count holds the cache reads and writes", () => {
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

  it("[F-SF1] reads the older prompt/completion attribute names and the conventions' cache_read.input_tokens", () => {
    const usage = readReportedUsage({
      "gen_ai.usage.prompt_tokens": 412,
      "gen_ai.usage.completion_tokens": 27,
      "gen_ai.usage.cache_read.input_tokens": 256,
      "gen_ai.usage.reasoning_tokens": 8,
    });
    expect(usage).toMatchObject({ input: 156, cacheRead: 256, output: 27, reasoning: 8 });
  });

  it("[F-SF1] takes cache counts that outnumber the input as left out of it", () => {
    expect(readReportedUsage({ "gen_ai.usage.input_tokens": 24, "gen_ai.usage.output_tokens": 3, "gen_ai.usage.cache_read_input_tokens": 900 })).toMatchObject({
      input: 24,
      cacheRead: 900,
    });
  });

  it("[F-SF1] reads Helicone's row counts, whose prompt_tokens leave out the cache reads and writes", () => {
    const counts = { prompt_tokens: 24, completion_tokens: 41, prompt_cache_read_tokens: 0, prompt_cache_write_tokens: 1480 };
    expect(readReportedUsage(counts)).toEqual({ input: 24, cacheRead: 0, cacheWrite5m: 1480, cacheWrite1h: 0, output: 41, reasoning: 0, raw: counts });
  });
});
