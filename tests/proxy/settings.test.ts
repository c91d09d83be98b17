import Anthropic from "@anthropic-ai/sdk";
import fs from "node:fs";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { getConversations } from "@/lib/db";
import { useTestDatabase } from "@/tests/support/db";
import { startProxyHarness, UPSTREAM_KEY, type ProxyHarness } from "./support/harness";

// The settings live in a file, not the database: one provider is enough here.
describe("proxy: upstream settings and whose key is forwarded", () => {
  const test = useTestDatabase("sqlite");
  let harness: ProxyHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  const settingsUrl = () => `${harness!.server.url}/api/settings/upstream`;
  const put = (body: unknown) => fetch(settingsUrl(), { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("shows where the upstream comes from and the key's last 4 characters, never the key", async () => {
    harness = await startProxyHarness(test.db);
    const response = await fetch(settingsUrl());
    const text = await response.text();
    expect(text).not.toContain(UPSTREAM_KEY);
    expect(JSON.parse(text)).toEqual({
      baseUrl: harness.fake.baseUrl,
      baseUrlSource: "environment",
      apiKey: { set: true, last4: "9876", source: "environment" },
      timeoutMs: 600_000,
      timeoutSource: "default",
      configured: true,
      anthropic: {
        baseUrl: harness.fake.anthropicBaseUrl,
        baseUrlSource: "environment",
        apiKey: { set: true, last4: "5432", source: "environment" },
        configured: true,
      },
    });
  });

  it("saves the settings page's upstream to a file only the server reads, and forwards with it", async () => {
    harness = await startProxyHarness(test.db);
    delete process.env.CONTEXT_LAB_UPSTREAM_BASE_URL;
    delete process.env.CONTEXT_LAB_UPSTREAM_API_KEY;
    expect((await (await fetch(settingsUrl())).json()).configured).toBe(false);

    const saved = await put({ baseUrl: `${harness.fake.baseUrl}/`, apiKey: "sk-stored-key-abcd1234", timeoutMs: 30_000 });
    expect(saved.status).toBe(200);
    const view = await saved.json();
    expect(view).toMatchObject({
      baseUrl: harness.fake.baseUrl,
      baseUrlSource: "settings",
      apiKey: { set: true, last4: "1234", source: "settings" },
      timeoutMs: 30_000,
      timeoutSource: "settings",
    });
    expect(JSON.stringify(view)).not.toContain("sk-stored");
    const file = process.env.CONTEXT_LAB_UPSTREAM_SETTINGS_FILE!;
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    await harness.agent("configured").chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "hi" }] });
    expect(harness.fake.requests[0].headers.authorization).toBe("Bearer sk-stored-key-abcd1234");

    const cleared = await (await put({ apiKey: null })).json();
    expect(cleared.apiKey).toEqual({ set: false, last4: null, source: null });
    expect(cleared.baseUrl).toBe(harness.fake.baseUrl);
  });

  it("refuses a base URL that is not http(s), naming the field", async () => {
    harness = await startProxyHarness(test.db);
    const response = await put({ baseUrl: "ftp://example.com" });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.issues[0].path).toBe("baseUrl");
  });

  it("forwards the agent's own key when no upstream key is configured, and records under its fingerprint", async () => {
    harness = await startProxyHarness(test.db, { upstreamKey: false, fake: { apiKey: "sk-agent-own-key-0000" } });
    const own = new OpenAI({ baseURL: harness.baseUrl, apiKey: "sk-agent-own-key-0000", maxRetries: 0 });
    await own.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "hi" }] });
    expect(harness.fake.requests[0].headers.authorization).toBe("Bearer sk-agent-own-key-0000");

    // A ctxlab- label is never a credential: without a configured key nothing is sent, and this fake refuses that.
    await expect(harness.agent("labelled").chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "hi" }] })).rejects.toMatchObject({
      status: 401,
    });
    await harness.recorded();
    const keys = (await getConversations(test.db)).map((conversation) => conversation.recordKey).sort();
    expect(keys).toEqual(["labelled", expect.stringMatching(/^key-[0-9a-f]{12}$/)].sort());
    expect(JSON.stringify(await getConversations(test.db))).not.toContain("sk-agent-own-key");
  });

  it("[P-A3] saves the Anthropic upstream apart, never showing its key, and forwards Messages with it", async () => {
    harness = await startProxyHarness(test.db);
    delete process.env.CONTEXT_LAB_ANTHROPIC_BASE_URL;
    delete process.env.CONTEXT_LAB_ANTHROPIC_API_KEY;
    const saved = await put({ anthropic: { baseUrl: `${harness.fake.anthropicBaseUrl}/`, apiKey: "sk-ant-stored-key-wxyz" } });
    expect(saved.status).toBe(200);
    const view = await saved.json();
    expect(view.anthropic).toEqual({
      baseUrl: harness.fake.anthropicBaseUrl,
      baseUrlSource: "settings",
      apiKey: { set: true, last4: "wxyz", source: "settings" },
      configured: true,
    });
    expect(JSON.stringify(view)).not.toContain("sk-ant-stored");
    const client = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: "ctxlab-settings", maxRetries: 0 });
    await client.messages.create({ model: "fake-claude", max_tokens: 16, messages: [{ role: "user", content: "hi" }] });
    expect(harness.fake.requests.at(-1)!.headers["x-api-key"]).toBe("sk-ant-stored-key-wxyz");

    const refused = await put({ anthropic: { baseUrl: "ftp://example.com" } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.issues[0].path).toBe("anthropic.baseUrl");
  });
});
