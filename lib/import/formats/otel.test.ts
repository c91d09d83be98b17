import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture } from "@/tests/fixtures/import/load";
import { parseConversations } from "../index";

const attribute = (key: string, value: string | number) => ({ key, value: typeof value === "number" ? { intValue: String(value) } : { stringValue: value } });
const otlp = (...spans: unknown[]) => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] });

/** A chat span as OpenLLMetry's Anthropic instrumentation writes one for a reply that thought, then called a tool. */
const thinkingSpan = {
  traceId: "5b8aa5a2d2c872e8321cf37308d69df2",
  spanId: "051581bf3cb55c13",
  name: "anthropic.chat",
  startTimeUnixNano: "1749904800120000000",
  endTimeUnixNano: "1749904802375000000",
  attributes: [
    attribute("gen_ai.system", "Anthropic"),
    attribute("gen_ai.request.model", "claude-sonnet-4-20250514"),
    attribute("gen_ai.prompt.0.content", "Weather in Oslo?"),
    attribute("gen_ai.prompt.0.role", "user"),
    attribute("gen_ai.completion.0.finish_reason", "tool_use"),
    attribute("gen_ai.completion.0.role", "thinking"),
    attribute("gen_ai.completion.0.content", "I should call get_weather."),
    attribute("gen_ai.completion.1.role", "assistant"),
    attribute("gen_ai.completion.1.tool_calls.0.id", "toolu_01"),
    attribute("gen_ai.completion.1.tool_calls.0.name", "get_weather"),
    attribute("gen_ai.completion.1.tool_calls.0.arguments", '{"city": "Oslo"}'),
  ],
};

describe("OpenTelemetry spans with OpenLLMetry's indexed attributes", () => {
  it("[IM-8] reads a real span's `thinking` completion as the reasoning of the answer instead of refusing its role", () => {
    const [conversation] = parseConversations(JSON.stringify(otlp(thinkingSpan))).conversations;
    expect(conversation.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(conversation.messages[1].parts?.[0]).toEqual({ type: "reasoning", text: "I should call get_weather." });
    expect(conversation.messages[1].tool_calls?.[0].id).toBe("toolu_01");
  });

  it("[IM-1] finds spans in oteltest's capture, Tempo's batches, Jaeger's JSON and a bare OTLP attributes list", () => {
    // The shape of a real OpenLLMetry 0.40.6 capture (pmcollins/otel-llm-bakeoff, output/ott-llmetry.json).
    const captured = { ...thinkingSpan, traceId: "UAEa7zQbWN3G5seMm+30vw==", spanId: "bdBdSAeos+4=" };
    const jaeger = {
      data: [
        {
          traceID: "5b8aa5a2d2c872e8",
          spans: [
            {
              traceID: "5b8aa5a2d2c872e8",
              spanID: "a1",
              operationName: "anthropic.chat",
              startTime: 1749904800120000,
              duration: 2255000,
              tags: thinkingSpan.attributes.map(({ key, value }) => ({ key, type: "string", value: value.stringValue ?? value.intValue })),
              processID: "p1",
            },
          ],
          processes: { p1: { serviceName: "weather-agent" } },
        },
      ],
    };
    const inputs = [
      { metric_requests: [], trace_requests: [{ pbreq: otlp(captured) }] },
      { batches: [{ scopeSpans: [{ spans: [thinkingSpan] }] }] },
      jaeger,
      thinkingSpan.attributes,
    ];
    for (const input of inputs) {
      const result = parseConversations(JSON.stringify(input));
      expect(result.format).toBe("otel");
      expect(result.conversations[0].messages).toHaveLength(2);
    }
    const [fromJaeger] = parseConversations(JSON.stringify(jaeger)).conversations;
    expect(fromJaeger.facts?.[1]).toMatchObject({ at: "2025-06-14T12:40:02.375Z", latencyMs: 2255 });
    expect(fromJaeger.source?.service).toBe("weather-agent");
  });

  const fixture = parseConversations(readFixture("formats/otel-openllmetry-anthropic-spans.json"));
  const [conversation] = fixture.conversations;

  it("[IM-2] reads the chat spans of a trace as one conversation in time order, each adding what it sent anew and its answer", () => {
    expect(fixture.conversations).toHaveLength(1);
    expect(conversation.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
    expect(conversation.messages[3]).toMatchObject({ role: "tool", tool_call_id: "toolu_01A9sDf3Gh5Jk7Lm", content: "4°C, light rain, wind 6 m/s" });
    expect(conversation.warnings.find((warning) => warning.code === "lines-merged")?.message).toMatch(/^2 chat spans/);
  });

  it("[IM-10] keeps each span's start as the time of what it sent and its end, latency, model, usage and response id on its answer", () => {
    expect(conversation.facts?.map((facts) => facts?.at)).toEqual([
      "2025-06-14T12:40:00.120Z",
      "2025-06-14T12:40:00.120Z",
      "2025-06-14T12:40:02.375Z",
      "2025-06-14T12:40:02.610Z",
      "2025-06-14T12:40:03.842Z",
    ]);
    expect(conversation.facts?.[2]).toMatchObject({
      latencyMs: 2255,
      model: "claude-sonnet-4-20250514",
      responseId: "msg_01XcVb7Kq2Lm9Nw3Rt5Yp8Zs",
      stopReason: "tool_use",
    });
    expect(conversation.facts?.[2]?.usage).toMatchObject({ input: 160, cacheWrite5m: 1024, output: 96 });
    expect(conversation.facts?.[4]?.usage).toMatchObject({ input: 272, cacheRead: 1024, output: 18 });
  });

  it("[IM-10] keeps the session id, the tools the span offered, the trace and the service", () => {
    expect(conversation.session).toEqual({ sessionId: "chat-5521" });
    expect(conversation.tools?.map((tool) => tool.function.name)).toEqual(["get_weather"]);
    expect(conversation.tools?.[0].function.parameters).toMatchObject({ required: ["city"] });
    expect(conversation.source).toMatchObject({ traceId: "7c1e5a2b9d4f4e0a8b3c6d5e4f3a2b1c", spans: 2, service: "weather-agent" });
  });

  it("[IM-3] counts the spans that hold no chat messages in a warning", () => {
    expect(conversation.warnings.find((warning) => warning.code === "entry-skipped")?.message).toBe(
      "skipped 1 span that holds no chat messages (weather_agent.workflow)",
    );
  });

  it("[IM-3] a span whose prompt continues no conversation of its trace becomes a conversation of its own, with a warning", () => {
    const other = {
      ...thinkingSpan,
      spanId: "b2",
      startTimeUnixNano: "1749904803000000000",
      attributes: [
        attribute("gen_ai.prompt.0.role", "user"),
        attribute("gen_ai.prompt.0.content", "Summarise the forecast."),
        attribute("gen_ai.completion.0.content", "Rain."),
      ],
    };
    const result = parseConversations(JSON.stringify(otlp(thinkingSpan, other)));
    expect(result.conversations.map((found) => found.messages.length)).toEqual([2, 2]);
    expect(result.conversations[0].warnings.find((warning) => warning.code === "sidechain")?.message).toBe(
      'span "anthropic.chat" sent a prompt that continues no conversation of the chat spans before it: imported as a conversation of its own',
    );
  });

  it("[IM-3] gives a legacy function_call without an id one id, the same in the span that repeats it, and pairs its function result, with warnings", () => {
    const call = [
      attribute("gen_ai.completion.0.role", "assistant"),
      attribute("gen_ai.completion.0.tool_calls.0.name", "lookup"),
      attribute("gen_ai.completion.0.tool_calls.0.arguments", "{}"),
    ];
    const first = {
      traceId: "t",
      spanId: "1",
      name: "openai.chat",
      startTimeUnixNano: "1",
      attributes: [attribute("gen_ai.prompt.0.role", "user"), attribute("gen_ai.prompt.0.content", "Look it up"), ...call],
    };
    const repeated = call.map(({ key, value }) => ({ key: key.replace("completion", "prompt").replace(".0.", ".1."), value }));
    const second = {
      traceId: "t",
      spanId: "2",
      name: "openai.chat",
      startTimeUnixNano: "2",
      attributes: [
        attribute("gen_ai.prompt.0.role", "user"),
        attribute("gen_ai.prompt.0.content", "Look it up"),
        ...repeated,
        attribute("gen_ai.prompt.2.role", "function"),
        attribute("gen_ai.prompt.2.content", "found"),
      ],
    };
    const [found] = parseConversations(JSON.stringify(otlp(first, second))).conversations;
    expect(found.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(found.messages[2].tool_call_id).toBe(found.messages[1].tool_calls?.[0].id);
    // Once for the call (the second span repeats it), once for the result paired with it by position.
    expect(found.warnings.filter((warning) => warning.code === "call-id-generated").map((warning) => warning.messageIndex)).toEqual([1, 2]);
  });

  it("[IM-2] reads the older llm.prompts.N.* attributes, a completion-style prompt and a refusal", () => {
    const older = { "llm.prompts.0.role": "user", "llm.prompts.0.content": "Hi", "llm.completions.0.content": "Hello!" };
    expect(parseConversations(JSON.stringify(older)).conversations[0].messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "Hi"],
      ["assistant", "Hello!"],
    ]);
    const refused = {
      "gen_ai.prompt.0.user": "Write malware",
      "gen_ai.completion.0.role": "assistant",
      "gen_ai.completion.0.refusal": "I can't help with that.",
    };
    const [, answer] = parseConversations(JSON.stringify(refused)).conversations[0].messages;
    expect(answer.parts).toEqual([{ type: "refusal", text: "I can't help with that." }]);
  });

  it("[IM-1] reads the OpenTelemetry Collector's file export, one export request a line, as one trace", () => {
    const result = attribute("gen_ai.prompt.2.content", JSON.stringify([{ type: "tool_result", tool_use_id: "toolu_01", content: "4°C" }]));
    const answered = [
      ...thinkingSpan.attributes.slice(0, 4),
      attribute("gen_ai.prompt.1.role", "assistant"),
      attribute("gen_ai.prompt.1.tool_calls.0.id", "toolu_01"),
      attribute("gen_ai.prompt.1.tool_calls.0.name", "get_weather"),
      attribute("gen_ai.prompt.1.tool_calls.0.arguments", '{"city": "Oslo"}'),
      attribute("gen_ai.prompt.2.role", "user"),
      result,
      attribute("gen_ai.completion.0.content", "4°C in Oslo."),
    ];
    const [first, second] = [thinkingSpan, { ...thinkingSpan, spanId: "later", startTimeUnixNano: "1749904802500000000", attributes: answered }];
    const text = `${JSON.stringify(otlp(first))}\n${JSON.stringify(otlp(second))}\n`;
    const imported = parseConversations(text);
    expect(imported.format).toBe("otel");
    expect(imported.conversations).toHaveLength(1);
    expect(imported.conversations[0].messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(imported.conversations[0].warnings.map((warning) => warning.path)).toContain("[0].resourceSpans[0].scopeSpans[0].spans[0]");
  });

  it("[IM-8] an export without a chat span is refused, naming the attributes looked for", () => {
    const error = importErrorOf(() =>
      parseConversations(JSON.stringify(otlp({ traceId: "t", spanId: "s", name: "POST", attributes: [attribute("http.method", "POST")] }))),
    );
    expect(error.issues[0]).toMatchObject({
      message: "no span has gen_ai.input.messages or gen_ai.prompt.N.* / gen_ai.completion.N.* attributes: there is no conversation in these spans",
      format: "OpenTelemetry GenAI spans",
    });
  });
});
