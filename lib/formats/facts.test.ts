import { describe, expect, it } from "vitest";
import { callFactsMetadata, callFactsOf, isoTime } from "./facts";

describe("call facts in metadata", () => {
  it("[F-SF2] round-trips through metadata fields", () => {
    const facts = { at: "2026-01-07T11:54:28.650Z", model: "claude-opus-4-5", requestId: "req_1", responseId: "msg_1", stopReason: "tool_use", latencyMs: 812 };
    expect(callFactsOf(callFactsMetadata(facts))).toEqual(facts);
  });

  it("[F-SF2] reads rows the proxy wrote before: the provider's usage object and finishReason", () => {
    const facts = callFactsOf({
      recorder: "proxy",
      model: "gpt-4o",
      finishReason: "stop",
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    });
    expect(facts).toMatchObject({ model: "gpt-4o", stopReason: "stop", usage: { input: 10, output: 2 } });
    expect(callFactsOf({ recorder: "chat" })).toBeUndefined();
  });

  it("[F-SF2] reads times given as ISO text or epoch seconds or milliseconds", () => {
    expect(isoTime("2026-02-24T09:51:48.878Z")).toBe("2026-02-24T09:51:48.878Z");
    expect(isoTime(1771926708)).toBe("2026-02-24T09:51:48.000Z");
    expect(isoTime(1771926708878)).toBe("2026-02-24T09:51:48.878Z");
    expect(isoTime("not a time")).toBeUndefined();
  });
});
