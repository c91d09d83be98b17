import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConversation, getConversations } from "@/lib/db";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/tests/support/fake-openai";
import { directAndProxied } from "./support/direct";
import { ANTHROPIC_UPSTREAM_KEY, recordedFor, useProxyHarness, UPSTREAM_KEY } from "./support/harness";

describe.each(TEST_PROVIDERS)("proxy: endpoints, sessions and the context pipeline across protocols (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  it("[P-E2] answers any other /api/v1 path with a JSON 404 in OpenAI's shape naming what is served", async () => {
    const client = harness.agent("lost");
    const error = await client.files.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const response = await fetch(`${harness.baseUrl}/assistants`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
    const body = await response.json();
    expect(body.error).toMatchObject({ type: "invalid_request_error", code: "unknown_endpoint", param: null });
    expect(body.error.message).toContain("POST /api/v1/assistants");
    expect(body.error.message).toContain("POST /api/v1/messages");
    expect(body.error.message).toContain("POST /api/v1/responses");
  });

  it("[P-E2] answers in Anthropic's shape when the request carries anthropic-version or x-api-key", async () => {
    const client = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: "ctxlab-lost", maxRetries: 0 });
    const error = await client.beta.files.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect((error as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({ type: "error", error: { type: "not_found_error" } });
    expect(String((error as Error).message)).toContain("GET /api/v1/files");
  });

  it("[P-E2] answers a served path asked with another method with a 405 in the protocol's shape", async () => {
    const openai = await fetch(`${harness.baseUrl}/responses`);
    expect(openai.status).toBe(405);
    expect(openai.headers.get("allow")).toBe("POST");
    expect((await openai.json()).error).toMatchObject({ type: "invalid_request_error", code: "method_not_allowed" });
    const anthropic = await fetch(`${harness.baseUrl}/messages`, { headers: { "anthropic-version": "2023-06-01" } });
    expect(anthropic.status).toBe(405);
    expect(await anthropic.json()).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: "GET /api/v1/messages is not served: use POST" },
    });
  });

  it("[P-P1] passes embeddings through unrecorded", async () => {
    const { direct, proxied } = await directAndProxied(harness.fake, [], (target) =>
      (target === "direct" ? new OpenAI({ baseURL: harness.fake.baseUrl, apiKey: UPSTREAM_KEY }) : harness.agent("embedder")).embeddings.create({
        model: "fake-embed",
        input: ["a", "bb"],
      }),
    );
    expect(proxied).toEqual(direct);
    expect(proxied.data).toHaveLength(2);
    expect(harness.fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    await harness.recorded();
    expect(await getConversations(test.db)).toEqual([]);
  });

  it("[P-S1] X-Context-Lab-Session gives each run of one key its own conversation", async () => {
    const run = (session: string) =>
      harness
        .agent("nightly", { defaultHeaders: { "X-Context-Lab-Session": session } })
        .responses.create({ model: "fake-gpt", instructions: "Same prompt.", input: "hi" });
    await run("run-1");
    await run("run-2");
    await harness.recorded();
    const keys = (await getConversations(test.db)).map((conversation) => conversation.recordKey).sort();
    expect(keys).toEqual(["nightly/run-1", "nightly/run-2"]);
    const first = await recordedFor(test.db, "nightly/run-1");
    expect(first.branches).toHaveLength(1);
  });

  it("[P-S3] under one Anthropic key a run that opens with another question is a conversation of its own; another system prompt is not", async () => {
    const client = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: "ctxlab-claude-runs", maxRetries: 0 });
    const ask = (system: string, question: string) =>
      client.messages.create({ model: "fake-claude", max_tokens: 64, system, messages: [{ role: "user", content: question }] });
    await ask("You are the planner.", "plan a trip");
    await ask("You are the critic.", "review the plan");
    await ask("You are the planner, version 2.", "plan a trip");
    await harness.recorded();
    const conversations = await getConversations(test.db);
    expect(conversations.map((conversation) => conversation.recordKey).sort()).toEqual(["claude-runs", expect.stringMatching(/^claude-runs#[0-9a-f]{8}$/)]);
    const planner = await recordedFor(test.db, "claude-runs");
    expect(planner.branches).toHaveLength(1);
    expect(planner.exchanges).toHaveLength(2);
  });

  it("[P-A4] applies the context pipeline to an Anthropic request, sending the processed history in Anthropic's form", async () => {
    await createConversation(test.db, { title: "windowed", source: "proxy", recordKey: "windowed", settings: { applyPipeline: true, historyRounds: 1 } });
    const messages: Anthropic.MessageParam[] = [];
    for (let round = 0; round < 3; round += 1) messages.push({ role: "user", content: `question ${round}` }, { role: "assistant", content: `answer ${round}` });
    messages.push({ role: "user", content: "last question" });
    const client = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: "ctxlab-windowed", maxRetries: 0 });
    const answer = await client.messages.create({ model: "fake-claude", max_tokens: 64, system: "Be brief.", messages });
    expect(answer.content).toEqual([{ type: "text", text: "echo: last question" }]);
    await harness.recorded();
    const sent = harness.fake.requests.at(-1)!.body!;
    expect(sent.system).toEqual("Be brief.");
    expect(sent.messages).toEqual([{ role: "user", content: "last question" }]);
    const recorded = await recordedFor(test.db, "windowed");
    expect(recorded.histories.get(recorded.branches[0].id)).toHaveLength(9);
    expect(recorded.exchanges[0].sent).toMatchObject({ model: "fake-claude", system: "Be brief.", messages: sent.messages });
  });

  it("[P-A3] answers 503 in Anthropic's shape when no Anthropic upstream is configured", async () => {
    delete process.env.CONTEXT_LAB_ANTHROPIC_BASE_URL;
    const client = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: "ctxlab-unset", maxRetries: 0 });
    const error = await client.messages
      .create({ model: "fake-claude", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(503);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: "error",
      error: { type: "api_error", message: expect.stringContaining("CONTEXT_LAB_ANTHROPIC_BASE_URL") },
    });
    await harness.recorded();
    expect((await recordedFor(test.db, "unset")).exchanges[0]).toMatchObject({ status: 503, error: { source: "proxy", type: "upstream_not_configured" } });
  });
});

describe("fake upstream: refuses histories whose tool calls do not pair, as the real APIs do", () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(() => fake.close());

  it("[P-F1] chat completions: an unanswered call", async () => {
    const client = new OpenAI({ baseURL: fake.baseUrl, apiKey: UPSTREAM_KEY, maxRetries: 0 });
    const error = await client.chat.completions
      .create({
        model: "fake-gpt",
        messages: [
          { role: "user", content: "go" },
          { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }] },
          { role: "user", content: "well?" },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String((error as Error).message)).toContain("did not have response messages: call_1");
  });

  it("[P-F1] Responses: an output without its call", async () => {
    const client = new OpenAI({ baseURL: fake.baseUrl, apiKey: UPSTREAM_KEY, maxRetries: 0 });
    const error = await client.responses
      .create({ model: "fake-gpt", input: [{ type: "function_call_output", call_id: "call_9", output: "x" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String((error as Error).message)).toContain("No tool call found for function call output with call_id call_9");
  });

  it("[P-F1] Anthropic: a tool result without its tool use", async () => {
    const client = new Anthropic({ baseURL: fake.anthropicBaseUrl, apiKey: ANTHROPIC_UPSTREAM_KEY, maxRetries: 0 });
    const error = await client.messages
      .create({ model: "fake-claude", max_tokens: 8, messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_9", content: "x" }] }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((error as Error).message)).toContain("unexpected `tool_use_id` found in `tool_result` blocks: toolu_9");
  });
});
