import os from "node:os";
import path from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/tests/support/fake-openai";
import { startNextServer, type NextServer } from "@/tests/support/next-server";

// The protocols' routes on the real server (the app server, lib/server): its routing (a catch-all beside
// the served paths) is what the route-server harness cannot show. Routing does not depend on
// the database engine, so one is enough here.

describe("proxy protocols on the app server", () => {
  let database: TestDatabase;
  let upstream: FakeOpenAI;
  let server: NextServer;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    upstream = await startFakeOpenAI({ anthropicApiKey: "sk-ant-next-test-key" });
    server = await startNextServer({
      databaseUrl: database.url,
      env: {
        CONTEXT_LAB_UPSTREAM_BASE_URL: upstream.baseUrl,
        CONTEXT_LAB_UPSTREAM_API_KEY: "sk-upstream-next-test-key",
        CONTEXT_LAB_ANTHROPIC_BASE_URL: upstream.anthropicBaseUrl,
        CONTEXT_LAB_ANTHROPIC_API_KEY: "sk-ant-next-test-key",
        CONTEXT_LAB_UPSTREAM_SETTINGS_FILE: path.join(os.tmpdir(), `context-lab-upstream-next-routes-${process.pid}.json`),
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await upstream?.close();
    await database?.cleanup();
  });

  it("[P-A3] ANTHROPIC_BASE_URL=<server>/api makes the Anthropic SDK record through /api/v1/messages, and count tokens", async () => {
    const client = new Anthropic({ baseURL: `${server.url}/api`, apiKey: "ctxlab-next-claude", maxRetries: 0 });
    const message = await client.messages.create({ model: "fake-claude", max_tokens: 32, messages: [{ role: "user", content: "hi" }] });
    expect(message.content).toEqual([{ type: "text", text: "echo: hi" }]);
    const counted = await client.messages.countTokens({ model: "fake-claude", messages: [{ role: "user", content: "hi" }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const deadline = Date.now() + 10_000;
    let titles: string[] = [];
    while (Date.now() < deadline && !titles.includes("next-claude")) {
      const listed = (await (await fetch(`${server.url}/api/conversations`)).json()) as { conversations: { title: string }[] };
      titles = listed.conversations.map((conversation) => conversation.title);
      // Recording follows the answer: ask again shortly.
      if (!titles.includes("next-claude")) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(titles).toContain("next-claude");
  });

  it("[P-R1] OpenAI Responses reach /api/v1/responses", async () => {
    const client = new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: "ctxlab-next-responses", maxRetries: 0 });
    const response = await client.responses.create({ model: "fake-gpt", input: "hi" });
    expect(response.output_text).toBe("echo: hi");
  });

  it("[P-P2] a whole answer reaches the official client as the upstream's bytes: not compressed, marked no-transform", async () => {
    // Past the size from which the server would compress (1 KiB): the fake echoes the question.
    const question = "Which flights leave Boston tomorrow morning? ".repeat(60);
    const client = new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: "ctxlab-next-whole", maxRetries: 0 });
    const { data, response } = await client.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: question }] }).withResponse();
    expect(data.choices[0].message.content).toBe(`echo: ${question}`);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("cache-control")).toContain("no-transform");
    // A client that asks for gzip outright gets the same.
    const raw = await fetch(`${server.url}/api/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer ctxlab-next-whole", "accept-encoding": "gzip" },
      body: JSON.stringify({ model: "fake-gpt", messages: [{ role: "user", content: question }] }),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-encoding")).toBeNull();
  });

  it("[P-E2] answers unknown /api/v1 paths and other methods with JSON in the protocol's shape, never HTML", async () => {
    const anthropic = await fetch(`${server.url}/api/v1/files`, { headers: { "anthropic-version": "2023-06-01" } });
    expect(anthropic.status).toBe(404);
    expect(await anthropic.json()).toMatchObject({ type: "error", error: { type: "not_found_error" } });
    const openai = await fetch(`${server.url}/api/v1/assistants/asst_1/threads`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(openai.status).toBe(404);
    expect((await openai.json()).error).toMatchObject({ code: "unknown_endpoint" });
    const method = await fetch(`${server.url}/api/v1/messages`);
    expect(method.status).toBe(405);
    expect(method.headers.get("content-type")).toContain("application/json");
  });
});
