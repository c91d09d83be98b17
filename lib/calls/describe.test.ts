import { describe, expect, it } from "vitest";
import { describeCalls, forwardedMessages, type StoredCall } from "./describe";
import { protocolOfCall } from "./protocol";

let next = 0;
function stored(request: unknown, outcome: Partial<StoredCall> = {}): StoredCall {
  next += 1;
  return {
    id: `call_${next}`,
    conversationId: "conv",
    branchId: "main",
    request,
    sent: null,
    response: null,
    status: 200,
    error: null,
    streamed: false,
    durationMs: 100,
    createdAt: new Date(Date.UTC(2026, 10, 23, 12, 0, next)).toISOString(),
    ...outcome,
  };
}

const SYSTEM = { role: "system", content: "You are a travel agent for Context Airlines." };
const ASK = { role: "user", content: "Where does reservation 8JX2WO go?" };
const TOOL = {
  type: "function",
  function: {
    name: "get_reservation_details",
    description: "Look a reservation up.",
    parameters: { type: "object", properties: { reservation_id: { type: "string" } } },
  },
};
const rateLimited = {
  status: 429,
  error: { source: "upstream", status: 429, type: "rate_limit_exceeded", message: "Slow down", code: null, headers: { "retry-after-ms": "500" } },
};

describe("protocolOfCall", () => {
  it("[CA-1] reads the protocol from the answer's shape first, then the request's", () => {
    expect(protocolOfCall({ model: "gpt-4o", messages: [ASK] }, { object: "chat.completion" })).toBe("openai-chat");
    expect(protocolOfCall({ model: "gpt-4o", input: "hi" }, null)).toBe("openai-responses");
    expect(protocolOfCall({ model: "x", messages: [ASK] }, { object: "response" })).toBe("openai-responses");
    expect(protocolOfCall({ model: "claude-sonnet-4-5", max_tokens: 100, system: "Be brief.", messages: [ASK] }, null)).toBe("anthropic");
    expect(
      protocolOfCall({ model: "claude-sonnet-4-5", messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "ok" }] }] }, null),
    ).toBe("anthropic");
    expect(protocolOfCall({ messages: [ASK] }, { type: "error", error: { type: "overloaded_error" } })).toBe("anthropic");
    expect(protocolOfCall({ contents: [] }, null)).toBe("gemini");
    expect(protocolOfCall({ model: "gpt-4o", messages: [SYSTEM, ASK] }, "upstream text")).toBe("openai-chat");
    expect(protocolOfCall("not json", null)).toBeNull();
  });
});

describe("describeCalls", () => {
  it("[CA-2] counts retries of one request after failures, and starts again at a new request", () => {
    const body = { model: "gpt-4o", messages: [SYSTEM, ASK] };
    const calls = [stored(body, rateLimited), stored(body, rateLimited), stored(body), stored(body), stored({ ...body, messages: [ASK] }, rateLimited)];
    const described = describeCalls(calls);
    expect(described.map((call) => call.retries)).toEqual([0, 1, 2, 0, 0]);
    expect(described.map((call) => call.outcome)).toEqual(["failed", "failed", "ok", "ok", "failed"]);
    expect(described[0].retryAfter).toBe("500 ms");
    expect(described[2].retryAfter).toBeNull();
    // Calls before the page count too.
    expect(describeCalls(calls.slice(2, 3), calls.slice(0, 2)).map((call) => [call.id, call.retries])).toEqual([[calls[2].id, 2]]);
  });

  it("[CA-4] splits the forwarded input into system, tools, history and new turns, summing to the total", () => {
    const first = stored({ model: "gpt-4o", messages: [SYSTEM, ASK], tools: [TOOL] });
    const reply = { role: "assistant", content: "It flies from Boston to Seattle." };
    const follow = { role: "user", content: "Is it direct?" };
    // The pipeline dropped the first question from what was forwarded: history shrinks, the agent's body did not.
    const second = stored(
      { model: "gpt-4o", messages: [SYSTEM, ASK, reply, follow], tools: [TOOL] },
      { sent: { model: "gpt-4o", messages: [SYSTEM, reply, follow], tools: [TOOL] } },
    );
    const [one, two] = describeCalls([first, second]);
    expect(one.tokens).toMatchObject({ encoding: "o200k_base", exact: true, history: 0 });
    expect(one.tokens!.tools).toBeGreaterThan(10);
    expect(two.tokens!.tools).toBe(one.tokens!.tools);
    expect(two.tokens!.system).toBe(one.tokens!.system);
    expect(two.tokens!.history).toBe(0);
    for (const call of [one, two]) expect(call.tokens!.total).toBe(call.tokens!.system + call.tokens!.tools + call.tokens!.history + call.tokens!.new);
    expect([two.requestMessages, two.sentMessages]).toEqual([4, 3]);
    expect(forwardedMessages(second).map((message) => message.content)).toEqual([SYSTEM.content, reply.content, follow.content]);
    // The same messages sent again are history, matched once each.
    const third = stored({ model: "gpt-4o", messages: [SYSTEM, reply, follow, follow] });
    const [, , three] = describeCalls([first, second, third]);
    expect(three.tokens!.history).toBeGreaterThan(0);
    expect(three.tokens!.new).toBe(three.tokens!.total - three.tokens!.system - three.tokens!.history);
  });

  it("[CA-5] prices reported usage with the catalogue; no usage, no prices or an unknown shape is an unknown cost", () => {
    const usage = { prompt_tokens: 2_000_000, completion_tokens: 1_000_000, total_tokens: 3_000_000 };
    const [priced, unknownModel, noUsage, oddUsage] = describeCalls([
      stored({ model: "gpt-4o-mini", messages: [ASK] }, { response: { object: "chat.completion", model: "gpt-4o-mini", choices: [], usage } }),
      stored({ model: "my-local-model", messages: [ASK] }, { response: { object: "chat.completion", choices: [], usage } }),
      stored({ model: "gpt-4o", messages: [ASK] }, rateLimited),
      stored({ model: "gpt-4o", messages: [ASK] }, { response: { object: "chat.completion", choices: [], usage: { tokens_in: 5 } } }),
    ]);
    expect(priced.cost).toBeCloseTo(2 * 0.15 + 1 * 0.6, 10);
    expect(priced.usage).toEqual({ input: 2_000_000, output: 1_000_000, cached: 0, cacheWrite: 0 });
    expect(unknownModel.cost).toBeNull();
    expect(unknownModel.tokens?.exact).toBe(false);
    expect([noUsage.usage, noUsage.cost]).toEqual([null, null]);
    expect([oddUsage.usage, oddUsage.cost]).toEqual([null, null]);
  });

  it("reads Anthropic calls: system field, cached tokens, the model answered", () => {
    const [call] = describeCalls([
      stored(
        { model: "claude-sonnet-4-5", max_tokens: 512, system: "Be brief.", messages: [{ role: "user", content: "Hi" }] },
        {
          response: {
            type: "message",
            model: "claude-sonnet-4-5-20250929",
            content: [{ type: "text", text: "Hello" }],
            usage: { input_tokens: 100, output_tokens: 5, cache_read_input_tokens: 900 },
          },
        },
      ),
    ]);
    expect(call).toMatchObject({ protocol: "anthropic", model: "claude-sonnet-4-5-20250929", requestMessages: 2 });
    expect(call.usage).toEqual({ input: 1000, output: 5, cached: 900, cacheWrite: 0 });
    expect(call.tokens!.system).toBeGreaterThan(0);
    expect(call.cost).not.toBeNull();
  });

  it("leaves the split out for a body it cannot read, and marks a running call pending", () => {
    const [unreadable, running] = describeCalls([
      stored({ model: "gpt-4o", messages: [{ role: "robot" }] }),
      stored({ model: "gpt-4o", messages: [ASK] }, { status: null, durationMs: null }),
    ]);
    expect([unreadable.tokens, unreadable.requestMessages]).toEqual([null, null]);
    expect(running.outcome).toBe("pending");
  });
});
