import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { directAndProxied, type Target } from "./support/direct";
import { ANTHROPIC_UPSTREAM_KEY, recordedFor, useProxyHarness } from "./support/harness";

const TOOLS: Anthropic.Tool[] = [
  { name: "search_flights", description: "Find flights", input_schema: { type: "object", properties: { to: { type: "string" } }, required: ["to"] } },
];
const SYSTEM = "You are a travel agent.";

describe.each(TEST_PROVIDERS)("proxy: Anthropic Messages with @anthropic-ai/sdk (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);
  const client = (target: Target, label: string) =>
    target === "direct"
      ? new Anthropic({ baseURL: harness.fake.anthropicBaseUrl, apiKey: ANTHROPIC_UPSTREAM_KEY, maxRetries: 0 })
      : // As ANTHROPIC_BASE_URL=http://127.0.0.1:<port>/api configures it.
        new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: `ctxlab-${label}`, maxRetries: 0 });

  it("[P-A1][P-A2] answers messages.create as the upstream does and records system, turns and the reply with its thinking", async () => {
    const script = { content: "Lisbon at 9.", reasoning: "They want the earliest flight." };
    const { direct, proxied } = await directAndProxied(harness.fake, [script], (target) =>
      client(target, "claude").messages.create({
        model: "fake-claude",
        max_tokens: 256,
        system: SYSTEM,
        messages: [{ role: "user", content: "A flight to Lisbon?" }],
      }),
    );
    expect(proxied).toEqual(direct);
    expect(proxied.content.map((block) => block.type)).toEqual(["thinking", "text"]);
    await harness.recorded();

    const recorded = await recordedFor(test.db, "claude");
    const history = recorded.histories.get(recorded.branches[0].id)!;
    expect(history.map((message) => [message.role, message.content])).toEqual([
      ["system", SYSTEM],
      ["user", "A flight to Lisbon?"],
      ["assistant", "Lisbon at 9."],
    ]);
    expect(history[2].parts?.[0]).toMatchObject({ type: "reasoning", text: "They want the earliest flight.", signature: "sig-fake-1" });
    expect(recorded.exchanges[0]).toMatchObject({ status: 200, streamed: false, error: null });
    expect(recorded.exchanges[0].response).toEqual(JSON.parse(JSON.stringify(direct)));
    expect(recorded.records.get(recorded.branches[0].id)!.at(-1)!.metadata).toMatchObject({ finishReason: "end_turn", usage: direct.usage });
    // P-A3: the configured key replaces the label; the SDK's version header goes through.
    const forwarded = harness.fake.requests.at(-1)!;
    expect(forwarded.headers["x-api-key"]).toBe(ANTHROPIC_UPSTREAM_KEY);
    expect(forwarded.headers["anthropic-version"]).toBe(harness.fake.requests[0].headers["anthropic-version"]);
    expect(forwarded.headers.authorization).toBeUndefined();
  });

  it("[P-A2] streams messages.stream with thinking and parallel tool use event by event, then records the tool results in order", async () => {
    const script = {
      reasoning: "Search both cities.",
      content: "Searching.",
      chunkSize: 3,
      toolCalls: [
        { id: "toolu_lis", name: "search_flights", arguments: '{"to":"LIS"}' },
        { id: "toolu_opo", name: "search_flights", arguments: '{"to":"OPO"}' },
      ],
    };
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Lisbon or Porto?" }];
    const { direct, proxied } = await directAndProxied(harness.fake, [script], async (target) => {
      const stream = client(target, "streamer").messages.stream({
        model: "fake-claude",
        max_tokens: 1024,
        system: SYSTEM,
        messages,
        tools: TOOLS,
        thinking: { type: "enabled", budget_tokens: 512 },
      });
      const events: Anthropic.MessageStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      return { events, message: await stream.finalMessage() };
    });
    expect(proxied).toEqual(direct);
    expect(proxied.message.content.map((block) => block.type)).toEqual(["thinking", "text", "tool_use", "tool_use"]);
    expect(proxied.events.filter((event) => event.type === "content_block_delta").length).toBeGreaterThan(8);

    const agent = client("proxy", "streamer");
    const uses = proxied.message.content.filter((block): block is Anthropic.ToolUseBlock => block.type === "tool_use");
    const answer = await agent.messages.create({
      model: "fake-claude",
      max_tokens: 1024,
      system: SYSTEM,
      tools: TOOLS,
      messages: [
        ...messages,
        { role: "assistant", content: proxied.message.content },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: uses[0].id, content: '["TP123"]' },
            { type: "tool_result", tool_use_id: uses[1].id, content: "[]" },
          ],
        },
      ],
    });
    expect(answer.content).toEqual([{ type: "text", text: "echo: " }]);
    await harness.recorded();

    const recorded = await recordedFor(test.db, "streamer");
    expect(recorded.branches).toHaveLength(1);
    const history = recorded.histories.get(recorded.branches[0].id)!;
    expect(history.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "tool", "assistant"]);
    expect(history[2]).toMatchObject({
      content: "Searching.",
      tool_calls: [{ id: "toolu_lis", function: { name: "search_flights", arguments: '{"to":"LIS"}' } }, { id: "toolu_opo" }],
    });
    expect(history[2].parts?.[0]).toMatchObject({ type: "reasoning", text: "Search both cities.", signature: "sig-fake-1" });
    expect(history.slice(3, 5).map((message) => [message.tool_call_id, message.content])).toEqual([
      ["toolu_lis", '["TP123"]'],
      ["toolu_opo", "[]"],
    ]);
    expect(recorded.exchanges.map((exchange) => [exchange.streamed, exchange.status])).toEqual([
      [true, 200],
      [false, 200],
    ]);
    const { parsed_output: _parsed, ...wire } = proxied.message as Anthropic.Message & { parsed_output?: unknown };
    expect(recorded.exchanges[0].response).toEqual(JSON.parse(JSON.stringify(wire)));
  });

  it("[P-A3] forwards the query string (?beta=true, as Claude Code sends it) and the beta header, and records the call like any other", async () => {
    const { direct, proxied } = await directAndProxied(harness.fake, [{ content: "beta answer" }], async (target) => {
      const message = await client(target, "beta").beta.messages.create(
        { model: "fake-claude", max_tokens: 64, messages: [{ role: "user", content: "hi" }], betas: ["interleaved-thinking-2025-05-14"] },
        { query: { beta: "true" } },
      );
      const { search, headers } = harness.fake.requests.at(-1)!;
      return { message, search, beta: headers["anthropic-beta"] };
    });
    expect(proxied).toEqual(direct);
    expect(proxied).toMatchObject({ search: "?beta=true", beta: "interleaved-thinking-2025-05-14" });
    await harness.recorded();
    const recorded = await recordedFor(test.db, "beta");
    expect(recorded.histories.get(recorded.branches[0].id)!.at(-1)).toEqual({ role: "assistant", content: "beta answer" });
  });

  it("[P-A3][P-P1] counts tokens through the proxy, unrecorded, with the beta header forwarded", async () => {
    const params = { model: "fake-claude", system: SYSTEM, messages: [{ role: "user" as const, content: "How many tokens is this?" }] };
    const { direct, proxied } = await directAndProxied(harness.fake, [], (target) => client(target, "counter").messages.countTokens(params));
    expect(proxied).toEqual(direct);
    expect(proxied.input_tokens).toBeGreaterThan(0);
    const betas = await directAndProxied(harness.fake, [], async (target) => {
      const counted = await client(target, "counter").beta.messages.countTokens({ ...params, betas: ["token-counting-2024-11-01"] });
      const { headers, search, path } = harness.fake.requests.at(-1)!;
      return { counted, path, search, beta: headers["anthropic-beta"] };
    });
    expect(betas.proxied).toEqual(betas.direct);
    expect(betas.proxied).toMatchObject({ counted: direct, path: "/v1/messages/count_tokens", beta: expect.stringContaining("token-counting-2024-11-01") });
    await harness.recorded();
    await expect(recordedFor(test.db, "counter")).rejects.toThrow("nothing was recorded");
  });

  it("[P-A3][P-E1] passes the upstream's 400 for unpaired tool use through in Anthropic's shape and records it", async () => {
    const error = await client("proxy", "unpaired")
      .messages.create({
        model: "fake-claude",
        max_tokens: 64,
        messages: [
          { role: "user", content: "go" },
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "search_flights", input: { to: "LIS" } }] },
          { role: "user", content: "never mind" },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(String((error as Error).message)).toContain("`tool_use` ids were found without `tool_result` blocks");
    await harness.recorded();
    const recorded = await recordedFor(test.db, "unpaired");
    expect(recorded.exchanges[0]).toMatchObject({ status: 400, error: { source: "upstream", status: 400, type: "invalid_request_error" } });
  });

  it("[P-E1] answers its own errors in Anthropic's shape: a body that is not a Messages request", async () => {
    const response = await fetch(`${harness.anthropicBaseUrl}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "ctxlab-broken", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: "fake-claude", max_tokens: 5, messages: [{ role: "system", content: "no" }] }),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(body.error.message).toContain("Anthropic Messages");
    expect(body.error.message).toContain("messages[0]");
  });

  it("[P-A2] records what arrived of a stream the upstream dropped, and ends the agent's stream the same way", async () => {
    harness.fake.enqueue({ kind: "drop", afterChunks: 6, reply: { content: "This answer is cut short somewhere.", chunkSize: 4 } });
    const stream = client("proxy", "dropped").messages.stream({ model: "fake-claude", max_tokens: 64, messages: [{ role: "user", content: "hi" }] });
    const text: string[] = [];
    stream.on("text", (delta) => text.push(delta));
    await expect(stream.finalMessage()).rejects.toThrow();
    await harness.recorded();
    const recorded = await recordedFor(test.db, "dropped");
    const [exchange] = recorded.exchanges;
    expect(exchange.error).toMatchObject({ source: "upstream", type: "stream_dropped", chunks: 6 });
    expect(exchange.response).toMatchObject({ id: "msg_fake_1", content: [{ type: "text", text: text.join("") }] });
    expect(recorded.histories.get(recorded.branches[0].id)!.map((message) => message.role)).toEqual(["user"]);
  });
});
