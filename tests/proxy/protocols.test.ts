import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { defaultPipelineSpec, OFFLOAD_MARKER_PATTERN } from "@/lib/context";
import { createConversation } from "@/lib/db";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { protocolOf, type FakeRequest, type FakeScript } from "@/tests/support/fake-openai";
import { bigResult, OFFLOADING } from "./support/offloading";
import { ANTHROPIC_UPSTREAM_KEY, recordedFor, UPSTREAM_KEY, useProxyHarness, type ProxyHarness } from "./support/harness";

// The one pipeline (lib/proxy/README.md, "The pipeline"): the reload loop (PX-R1–PX-R3), off means
// off (PX-O1), no invented limits (PX-L1) and honest failures (PX-F1–PX-F3), each on every protocol,
// driven by the official clients.

type Protocol = "chat" | "responses" | "anthropic";
const PROTOCOLS: Protocol[] = ["chat", "responses", "anthropic"];
type Target = "direct" | "proxy";

const SYSTEM = "You book flights.";
const FIND = "Find flights to Lisbon.";
const BOOK = "Book the cheapest and tell me the confirmation code.";
const CODE = "CONFIRMATION-XQ7731";

const OLD_RESULT = bigResult("old", CODE, 15_000);
const NEW_RESULT = bigResult("new", "SEAT-MAP-22F", 3_000);

const searchSchema = { type: "object" as const, properties: { to: { type: "string" } }, required: ["to"] };
const bookSchema = { type: "object" as const, properties: { id: { type: "string" } }, required: ["id"] };

/** One history in each protocol's own shape: a finished round with a 15,000-character result, then the active round. */
function requestFor(protocol: Protocol, extra: Record<string, unknown> = {}): Record<string, unknown> {
  if (protocol === "chat")
    return {
      model: "gpt-4o",
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: FIND },
        {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [{ id: "call_old", type: "function", function: { name: "search_flights", arguments: '{"to":"LIS"}' } }],
        },
        { role: "tool", tool_call_id: "call_old", content: OLD_RESULT },
        { role: "assistant", content: "I found several flights.", refusal: null },
        { role: "user", content: BOOK },
        { role: "assistant", content: null, tool_calls: [{ id: "call_new", type: "function", function: { name: "book_flight", arguments: '{"id":"TP1"}' } }] },
        { role: "tool", tool_call_id: "call_new", content: NEW_RESULT },
      ],
      tools: [
        { type: "function", function: { name: "search_flights", description: "Search flights.", parameters: searchSchema, strict: null } },
        { type: "function", function: { name: "book_flight", description: "Book a flight.", parameters: bookSchema } },
      ],
      ...extra,
    };
  if (protocol === "responses")
    return {
      model: "gpt-4o",
      instructions: SYSTEM,
      input: [
        { role: "user", content: FIND },
        { type: "function_call", call_id: "call_old", name: "search_flights", arguments: '{"to":"LIS"}' },
        { type: "function_call_output", call_id: "call_old", output: OLD_RESULT },
        { role: "assistant", content: "I found several flights." },
        { role: "user", content: BOOK },
        { type: "function_call", call_id: "call_new", name: "book_flight", arguments: '{"id":"TP1"}' },
        { type: "function_call_output", call_id: "call_new", output: NEW_RESULT },
      ],
      tools: [
        { type: "function", name: "search_flights", description: "Search flights.", parameters: searchSchema, strict: false },
        { type: "function", name: "book_flight", description: "Book a flight.", parameters: bookSchema, strict: false },
      ],
      ...extra,
    };
  return {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    system: SYSTEM,
    messages: [
      { role: "user", content: FIND },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_old", name: "search_flights", input: { to: "LIS" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_old", content: OLD_RESULT }] },
      { role: "assistant", content: "I found several flights." },
      { role: "user", content: BOOK },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_new", name: "book_flight", input: { id: "TP1" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_new", content: NEW_RESULT }] },
    ],
    tools: [
      { name: "search_flights", description: "Search flights.", input_schema: searchSchema },
      { name: "book_flight", description: "Book a flight.", input_schema: bookSchema },
    ],
    ...extra,
  };
}

/** What an agent made of one call: the text it read, every event or body it saw (as JSON), and the error its client raised. */
interface Seen {
  text: string;
  seen: string;
  error: string | null;
  status: number | null;
}

function clients(harness: Omit<ProxyHarness, "close">, target: Target, label: string, maxRetries: number) {
  const openai =
    target === "direct"
      ? new OpenAI({ baseURL: harness.fake.baseUrl, apiKey: UPSTREAM_KEY, maxRetries })
      : new OpenAI({ baseURL: harness.baseUrl, apiKey: `ctxlab-${label}`, maxRetries });
  const anthropic =
    target === "direct"
      ? new Anthropic({ baseURL: harness.fake.anthropicBaseUrl, apiKey: ANTHROPIC_UPSTREAM_KEY, maxRetries })
      : new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: `ctxlab-${label}`, maxRetries });
  return { openai, anthropic };
}

function textOf(protocol: Protocol, answer: unknown): string {
  if (protocol === "chat") return (answer as OpenAI.Chat.Completions.ChatCompletion).choices[0]?.message.content ?? "";
  if (protocol === "responses") return (answer as OpenAI.Responses.Response).output_text;
  return (answer as Anthropic.Message).content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

function deltaOf(protocol: Protocol, event: unknown): string {
  if (protocol === "chat") return (event as OpenAI.Chat.Completions.ChatCompletionChunk).choices[0]?.delta.content ?? "";
  if (protocol === "responses") {
    const typed = event as OpenAI.Responses.ResponseStreamEvent;
    return typed.type === "response.output_text.delta" ? typed.delta : "";
  }
  const typed = event as Anthropic.RawMessageStreamEvent;
  return typed.type === "content_block_delta" && typed.delta.type === "text_delta" ? typed.delta.text : "";
}

/** What the agent saw as JSON, without the Responses echo of the request's `tools` (the declarations, not calls). */
function seenText(seen: unknown[]): string {
  return JSON.stringify(seen, (key, value: unknown) => (key === "tools" ? undefined : value));
}

/** Makes one call with the protocol's official client, whole or streamed, and says what the agent saw. */
async function call(
  harness: Omit<ProxyHarness, "close">,
  protocol: Protocol,
  target: Target,
  label: string,
  body: Record<string, unknown>,
  maxRetries = 0,
): Promise<Seen> {
  const { openai, anthropic } = clients(harness, target, label, maxRetries);
  const seen: unknown[] = [];
  let text = "";
  try {
    const create = (): Promise<unknown> =>
      protocol === "chat"
        ? openai.chat.completions.create(body as never)
        : protocol === "responses"
          ? openai.responses.create(body as never)
          : anthropic.messages.create(body as never);
    const answer = await create();
    if (body.stream === true) {
      for await (const event of answer as AsyncIterable<unknown>) {
        seen.push(event);
        text += deltaOf(protocol, event);
      }
    } else {
      seen.push(answer);
      text = textOf(protocol, answer);
    }
    return { text, seen: seenText(seen), error: null, status: null };
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    return { text, seen: seenText(seen), error: (error as Error).constructor.name, status: typeof status === "number" ? status : null };
  }
}

/** The tool names a forwarded request declares, in its protocol's shape. */
function declaredTools(request: FakeRequest): string[] {
  const tools = (request.body?.tools ?? []) as { name?: string; function?: { name: string } }[];
  return tools.map((tool) => tool.function?.name ?? tool.name ?? "");
}

/** The fake model: reloads the first offloaded handle it sees; once the whole result is back, answers with the code in it. */
function reloadingModel(request: FakeRequest): FakeScript {
  if (request.text.includes(CODE)) return { content: `Your confirmation code is ${CODE}.` };
  const handle = [...request.text.matchAll(OFFLOAD_MARKER_PATTERN)][0]?.[1];
  if (!handle) return { content: "I cannot see the search results." };
  return {
    toolCalls: [{ id: protocolOf(request) === "anthropic" ? "toolu_reload" : "call_reload", name: "reload_offloaded", arguments: JSON.stringify({ handle }) }],
  };
}

const ALL_OFF = { applyPipeline: true, processors: defaultPipelineSpec().map((entry) => ({ ...entry, enabled: false })) };

describe.each(TEST_PROVIDERS)("proxy: one pipeline for every protocol (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  for (const protocol of PROTOCOLS) {
    for (const stream of [false, true]) {
      const how = stream ? "streamed" : "whole";

      it(`[PX-R1][PX-R2] ${protocol}, ${how}: offers reload_offloaded in its own shape, answers it, and the agent never sees the tool`, async () => {
        const label = `reload-${protocol}-${how}`;
        await createConversation(test.db, { title: label, source: "proxy", recordKey: label, settings: OFFLOADING });
        harness.fake.respondWith(reloadingModel);
        const seen = await call(harness, protocol, "proxy", label, requestFor(protocol, stream ? { stream: true } : {}));

        expect(seen.error).toBeNull();
        expect(seen.text).toBe(`Your confirmation code is ${CODE}.`);
        expect(seen.seen).not.toContain("reload_offloaded");
        // Two upstream calls: the first offers the tool next to the agent's, the second carries the whole original as the tool's result.
        expect(harness.fake.requests).toHaveLength(2);
        expect(declaredTools(harness.fake.requests[0])).toEqual(["search_flights", "book_flight", "reload_offloaded"]);
        expect(harness.fake.requests[0].text).toMatch(OFFLOAD_MARKER_PATTERN);
        expect(harness.fake.requests[1].text).toContain(CODE);

        await harness.recorded();
        const { branches, records, exchanges } = await recordedFor(test.db, label);
        const reply = records.get(branches[0].id)!.at(-1)!;
        expect(reply.message).toMatchObject({ role: "assistant", content: seen.text });
        expect(reply.message.tool_calls ?? []).toEqual([]);
        expect(reply.metadata?.reloads).toEqual([{ handles: [expect.stringMatching(/^off_/)], found: [true], characters: [OLD_RESULT.length] }]);
        expect(exchanges[0]).toMatchObject({ status: 200, streamed: stream, error: null });
      });

      it(`[PX-R1] ${protocol}, ${how}: without offloading, neither the tool nor a marker goes upstream`, async () => {
        const label = `plain-${protocol}-${how}`;
        await createConversation(test.db, { title: label, source: "proxy", recordKey: label, settings: { ...OFFLOADING, maxMessageSize: 100_000 } });
        const seen = await call(harness, protocol, "proxy", label, requestFor(protocol, stream ? { stream: true } : {}));
        expect(seen.error).toBeNull();
        expect(harness.fake.requests).toHaveLength(1);
        expect(declaredTools(harness.fake.requests[0])).toEqual(["search_flights", "book_flight"]);
        expect(harness.fake.requests[0].text).not.toMatch(OFFLOAD_MARKER_PATTERN);
      });

      it(`[PX-O1] ${protocol}, ${how}: with every processor off the upstream receives the agent's bytes`, async () => {
        const label = `off-${protocol}-${how}`;
        await createConversation(test.db, { title: label, source: "proxy", recordKey: label, settings: ALL_OFF });
        const body = requestFor(protocol, stream ? { stream: true } : {});
        const direct = await call(harness, protocol, "direct", label, body);
        const proxied = await call(harness, protocol, "proxy", label, body);
        expect(proxied.error).toBeNull();
        expect(direct.error).toBeNull();
        expect(harness.fake.requests).toHaveLength(2);
        expect(harness.fake.requests[1].text).toBe(harness.fake.requests[0].text);
        await harness.recorded();
        const { exchanges } = await recordedFor(test.db, label);
        // Nothing was changed, so nothing was sent but the agent's own request.
        expect(exchanges[0].sent).toBeNull();
      });
    }
  }

  it("[PX-O1][E-RB9] a history the summary threshold would shorten goes whole while the summarize processor is off", async () => {
    const settings = { ...ALL_OFF, summaryThreshold: 2 };
    await createConversation(test.db, { title: "threshold", source: "proxy", recordKey: "threshold", settings });
    const agent = harness.agent("threshold");
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "system", content: SYSTEM }];
    for (let turn = 0; turn < 6; turn += 1) {
      messages.push({ role: "user", content: `question ${turn}` });
      const completion = await agent.chat.completions.create({ model: "gpt-4o", messages });
      messages.push({ role: "assistant", content: completion.choices[0].message.content });
      await harness.recorded();
    }
    // Every call went as the agent sent it: no summary, no retrieved memory, however far past the threshold.
    harness.fake.requests.forEach((request, index) => expect(request.body?.messages).toEqual(messages.slice(0, 2 + index * 2)));
  });

  it("[PX-L1] adds no reply limit the agent did not send; a limit the settings set goes in the field the model accepts", async () => {
    const window = defaultPipelineSpec().map((entry) => ({ ...entry, enabled: entry.kind === "round_window" }));
    const cases: { label: string; protocol: Protocol; model: string; settings: Record<string, unknown>; expected: Record<string, unknown> }[] = [
      { label: "none", protocol: "chat", model: "gpt-4o", settings: {}, expected: {} },
      { label: "chat", protocol: "chat", model: "gpt-4o", settings: { maxOutputTokens: 700 }, expected: { max_tokens: 700 } },
      { label: "reasoning", protocol: "chat", model: "o3-mini", settings: { maxOutputTokens: 700 }, expected: { max_completion_tokens: 700 } },
      { label: "responses", protocol: "responses", model: "gpt-5", settings: { maxOutputTokens: 700 }, expected: { max_output_tokens: 700 } },
    ];
    for (const { label, protocol, model, settings, expected } of cases) {
      await createConversation(test.db, {
        title: label,
        source: "proxy",
        recordKey: `limit-${label}`,
        settings: { applyPipeline: true, historyRounds: 1, processors: window, ...settings },
      });
      const seen = await call(harness, protocol, "proxy", `limit-${label}`, requestFor(protocol, { model }));
      expect(seen.error).toBeNull();
      const sent = harness.fake.requests.at(-1)!.body!;
      const limits = Object.fromEntries(
        ["max_tokens", "max_completion_tokens", "max_output_tokens"].filter((field) => field in sent).map((field) => [field, sent[field]]),
      );
      expect(limits, label).toEqual(expected);
    }
    // The agent's own limit is kept as it sent it, and nothing is added beside it.
    await call(harness, "chat", "proxy", "limit-chat", requestFor("chat", { max_completion_tokens: 33 }));
    expect(harness.fake.requests.at(-1)!.body).toMatchObject({ max_completion_tokens: 33 });
    expect(harness.fake.requests.at(-1)!.body).not.toHaveProperty("max_tokens");
  });

  it("[PX-E3] a base URL with /v1 twice gets a 404 that names the base URL each client takes", async () => {
    // ANTHROPIC_BASE_URL set to the OpenAI base URL: the SDK appends /v1/messages to .../api/v1.
    const misconfigured = new Anthropic({ baseURL: harness.baseUrl, apiKey: "ctxlab-twice", maxRetries: 0 });
    const error = await misconfigured.messages
      .create({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect((error as Error).message).toContain(`Anthropic clients take ${harness.anthropicBaseUrl} (ANTHROPIC_BASE_URL)`);
    expect(harness.fake.requests).toHaveLength(0);
  });

  it("[PX-F4] a request the upstream rejects records the turns it carried, with the error; the tool list is stored as sent", async () => {
    harness.fake.enqueue({ kind: "error", status: 429 });
    const seen = await call(harness, "chat", "proxy", "rejected", requestFor("chat"));
    expect(seen).toMatchObject({ error: "RateLimitError", status: 429 });
    await harness.recorded();
    const { conversation, branches, histories, exchanges } = await recordedFor(test.db, "rejected");
    expect(histories.get(branches[0].id)!.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
      "tool",
    ]);
    expect(exchanges[0]).toMatchObject({ status: 429, error: { source: "upstream", status: 429, code: "rate_limit_exceeded" } });
    // `"strict": null` is kept, as the agent declared it.
    expect(conversation.tools?.[0].function).toMatchObject({ name: "search_flights", strict: null });
  });

  const ENDINGS: { name: string; stream: boolean; script: (reply: { content: string }) => FakeScript; recorded: string }[] = [
    { name: "a stream without its final event", stream: true, script: (reply) => ({ kind: "truncate", afterChunks: 3, reply }), recorded: "stream_incomplete" },
    { name: "an error event inside the stream", stream: true, script: (reply) => ({ kind: "stream-error", afterChunks: 2, reply }), recorded: "stream_error" },
    { name: "a stream dropped before its first chunk", stream: true, script: (reply) => ({ kind: "drop", afterChunks: 0, reply }), recorded: "stream_dropped" },
    { name: "a stream dropped mid-way", stream: true, script: (reply) => ({ kind: "drop", afterChunks: 3, reply }), recorded: "stream_dropped" },
    { name: "a whole body cut after its headers", stream: false, script: (reply) => ({ kind: "cut", reply }), recorded: "body_cut" },
  ];

  for (const protocol of PROTOCOLS) {
    for (const ending of ENDINGS) {
      it(`[PX-F1][PX-F2][PX-F3] ${protocol}: ${ending.name} reaches the agent as it would directly, and is recorded as ${ending.recorded}`, async () => {
        const label = `ending-${protocol}-${ending.recorded}-${ending.stream}`;
        const body = requestFor(protocol, ending.stream ? { stream: true } : {});
        const script = ending.script({ content: "Your flight TP1 is booked; the code follows shortly." });
        // The clients' default retries: an agent retries what it takes for a connection that never answered, and must not here.
        harness.fake.rewind();
        harness.fake.respondWith(() => script);
        const direct = await call(harness, protocol, "direct", label, body, 2);
        const directRequests = harness.fake.requests.length;
        harness.fake.rewind();
        const proxied = await call(harness, protocol, "proxy", label, body, 2);

        expect({ ...proxied, seen: undefined }).toEqual({ ...direct, seen: undefined });
        expect(proxied.seen).toBe(direct.seen);
        expect(harness.fake.requests.length - directRequests).toBe(directRequests);

        await harness.recorded();
        const { branches, histories, exchanges } = await recordedFor(test.db, label);
        expect(exchanges.map((exchange) => (exchange.error as { type?: string } | null)?.type)).toEqual(Array(directRequests).fill(ending.recorded));
        // The partial reply is kept on the exchange, never placed as a finished turn.
        expect(histories.get(branches[0].id)!.at(-1)).toMatchObject({ role: "tool" });
        expect(exchanges[0].status).toBe(200);
      });
    }
  }
});
