// Usage objects agent frameworks built on LiteLLM write (OpenHands, SWE-agent, mini-swe-agent): SF1 in SPEC.md.
import { describe, expect, it } from "vitest";
import { readReportedUsage } from "./facts";

describe("readReportedUsage, LiteLLM and OpenHands shapes", () => {
  it("[SF1] reads LiteLLM's chat usage for an Anthropic model: prompt_tokens counts the cache reads and writes", () => {
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

  it("[SF1] takes the cache write from cache_creation_input_tokens when LiteLLM reports no cached tokens in the details", () => {
    const raw = { completion_tokens: 104, prompt_tokens: 3439, cache_creation_input_tokens: 3435, cache_read_input_tokens: 0 };
    expect(readReportedUsage(raw)).toMatchObject({ input: 4, cacheRead: 0, cacheWrite5m: 3435, output: 104 });
  });

  it("[SF1] reads OpenHands' TokenUsage (llm_metrics.token_usages), whose cache fields are cache_read_tokens and cache_write_tokens", () => {
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

  it("[SF1] still reads Anthropic's own usage, which has no prompt_tokens", () => {
    expect(readReportedUsage({ input_tokens: 6, output_tokens: 9, cache_read_input_tokens: 3435, cache_creation_input_tokens: 160 })).toMatchObject({
      input: 6,
      cacheRead: 3435,
      cacheWrite5m: 160,
      output: 9,
    });
  });
});
