import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONVERSATION_CACHE_MS } from "@/lib/proxy";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/tests/support/fake-openai";
import { rawRequest, startServerPair, type ServerPair } from "@/tests/support/next-server";

// The app server (lib/server) as users start it, on the production build: what it answers itself
// (the recording proxy, the live streams), what it hands to Next, and what the two share in one process.

const TOKEN = "app-server-test-token-7b1e93";

const jsonHeaders = { "content-type": "application/json" };

/** Reads an event stream until `wanted` shows up in it; resolves to what was read. */
async function readUntil(body: ReadableStream<Uint8Array>, wanted: string): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes(wanted)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stream ended before "${wanted}":\n${text}`);
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

describe("the app server", () => {
  let database: TestDatabase;
  let upstream: FakeOpenAI;
  let servers: ServerPair;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    upstream = await startFakeOpenAI();
    const env = {
      CONTEXT_LAB_UPSTREAM_BASE_URL: upstream.baseUrl,
      CONTEXT_LAB_UPSTREAM_API_KEY: "sk-upstream-app-server",
      CONTEXT_LAB_UPSTREAM_SETTINGS_FILE: path.join(os.tmpdir(), `context-lab-upstream-app-server-${process.pid}.json`),
    };
    servers = await startServerPair({ databaseUrl: database.url, env, token: TOKEN });
  }, 120_000);

  afterAll(async () => {
    await servers?.stop();
    await upstream?.close();
    await database?.cleanup();
  });

  it("[SV-2] [SV-6] the official client's whole and streamed answers come from the plain handlers, their time split in Server-Timing", async () => {
    const client = new OpenAI({ baseURL: `${servers.open.url}/api/v1`, apiKey: "ctxlab-app-server", maxRetries: 0 });
    const { data, response } = await client.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "hi" }] }).withResponse();
    expect(data.choices[0].message.content).toBe("echo: hi");
    const timing = response.headers.get("server-timing") ?? "";
    expect(timing.split(",").map((entry) => entry.trim().split(";")[0])).toEqual(["upstream", "proxy", "server"]);
    const stream = await client.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "streamed" }], stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toBe("echo: streamed");
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toContain("fake-gpt");
  });

  it("[SV-2] answers HEAD as GET without a body, and a method no route has with a JSON 405", async () => {
    const head = await rawRequest(servers.open.url, { method: "HEAD", path: "/api/v1/models" });
    expect([head.status, head.body]).toEqual([200, ""]);
    expect(head.headers["content-type"]).toContain("json");
    const propfind = await rawRequest(servers.open.url, { method: "PROPFIND", path: "/api/v1/models" });
    expect(propfind.status).toBe(405);
    expect(propfind.json()).toMatchObject({ error: { code: "method_not_allowed" } });
  });

  it("[SV-7] [BD-1] a path it cannot read is refused with the guard's JSON 400 before Next or a handler sees it, pages and API alike", async () => {
    for (const target of ["/c/%", "/api/conversations/%zz", "/api/v1/%ff", "/api/live/conversations/%00", "/%E0%A4%A"]) {
      const response = await rawRequest(servers.open.url, { path: target });
      expect([target, response.status]).toEqual([target, 400]);
      expect(response.headers["content-type"]).toContain("application/json");
      expect(response.json()).toMatchObject({ error: { code: "invalid_path" } });
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
    }
    // The Host is judged first (SEC-1): a rebinding page learns nothing from its broken path either.
    const foreign = await rawRequest(servers.open.url, { path: "/c/%", headers: { host: `evil.example:${servers.open.port}` } });
    expect(foreign.status).toBe(403);
    expect(foreign.json()).toMatchObject({ error: { code: "forbidden_host" } });
  });

  it("[SV-10] [SEC-1] [SEC-2] [SEC-3] the plain handlers refuse a foreign Host, another origin and a missing token; the token opens them", async () => {
    const forwarded = upstream.requests.length;
    for (const target of ["/api/v1/models", "/api/live/conversations"]) {
      const rebinding = await rawRequest(servers.open.url, { path: target, headers: { host: `evil.example:${servers.open.port}` } });
      expect([target, rebinding.status, rebinding.json().error]).toMatchObject([target, 403, { code: "forbidden_host" }]);
      const crossOrigin = await rawRequest(servers.open.url, { path: target, headers: { origin: "http://evil.example" } });
      expect([target, crossOrigin.status, crossOrigin.json().error]).toMatchObject([target, 403, { code: "forbidden_origin" }]);
      const anonymous = await rawRequest(servers.locked.url, { path: target });
      expect([target, anonymous.status, anonymous.json().error]).toMatchObject([target, 401, { code: "unauthorized" }]);
    }
    const planted = await rawRequest(servers.open.url, {
      method: "POST",
      path: "/api/v1/chat/completions",
      body: JSON.stringify({ model: "fake-gpt", messages: [{ role: "user", content: "planted" }] }),
      headers: { "content-type": "text/plain", origin: `http://evil.example` },
    });
    expect(planted.status).toBe(403);
    expect(upstream.requests).toHaveLength(forwarded);
    const agent = new OpenAI({ baseURL: `${servers.locked.url}/api/v1`, apiKey: TOKEN, maxRetries: 0 });
    expect((await agent.models.list()).data.map((model) => model.id)).toContain("fake-gpt");
    const live = await fetch(`${servers.locked.url}/api/live/conversations`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(live.status).toBe(200);
    expect(await readUntil(live.body!, "subscribed to *")).toContain("retry: 3000");
    await live.body!.cancel();
  });

  it("[SV-4] [SV-5] a streamed answer's first chunk reaches the client while the upstream still holds the rest; the client hanging up cancels the upstream call", async () => {
    upstream.enqueue({ kind: "stall", afterChunks: 2, reply: { content: "the first words and then nothing more" } });
    const abandoned = upstream.abandoned;
    const aborter = new AbortController();
    const response = await fetch(`${servers.open.url}/api/v1/chat/completions`, {
      method: "POST",
      headers: { ...jsonHeaders, authorization: "Bearer ctxlab-app-server-stall" },
      body: JSON.stringify({ model: "fake-gpt", stream: true, messages: [{ role: "user", content: "stall" }] }),
      signal: aborter.signal,
    });
    expect(response.status).toBe(200);
    const first = await readUntil(response.body!, "chat.completion.chunk");
    expect(first).toMatch(/^data: \{/);
    // The upstream stalls for good: nothing but the proxy's passing bytes through could have delivered that.
    expect(upstream.abandoned).toBe(abandoned);
    aborter.abort();
    await expect.poll(() => upstream.abandoned, { timeout: 10_000 }).toBe(abandoned + 1);
  });

  it("[SV-9] [LV-LC1] an append made through a Next route reaches a live stream served by the plain handler", async () => {
    const created = await fetch(`${servers.open.url}/api/conversations`, {
      method: "POST",
      headers: jsonHeaders,
      body: JSON.stringify({ title: "shared bus", messages: [{ role: "user", content: "before" }] }),
    });
    expect(created.status).toBe(201);
    const { conversation, branch } = (await created.json()) as { conversation: { id: string }; branch: { id: string } };
    const live = await fetch(`${servers.open.url}/api/live/conversations/${conversation.id}`);
    expect(live.status).toBe(200);
    await readUntil(live.body!, `subscribed to ${conversation.id}`);
    const appended = await fetch(`${servers.open.url}/api/branches/${branch.id}/messages`, {
      method: "POST",
      headers: jsonHeaders,
      body: JSON.stringify({ messages: [{ role: "assistant", content: "after, from Next" }] }),
    });
    expect(appended.status).toBe(201);
    const events = await readUntil(live.body!, "after, from Next");
    expect(events).toContain("event: conversation-updated");
    await live.body!.cancel();
  });

  it("[SV-9] a conversation deleted through Next is forgotten by the proxy: the agent's next call starts a new one", async () => {
    const agent = new OpenAI({ baseURL: `${servers.open.url}/api/v1`, apiKey: "ctxlab-app-server-deleted", maxRetries: 0 });
    const ask = (content: string) => agent.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content }] });
    const recorded = async (): Promise<{ id: string; messageCount: number }[]> => {
      const listed = (await (await fetch(`${servers.open.url}/api/conversations?limit=500`)).json()) as {
        conversations: { id: string; recordKey: string | null; messageCount: number }[];
      };
      return listed.conversations.filter((conversation) => conversation.recordKey?.startsWith("app-server-deleted"));
    };
    await ask("first");
    // The question and its answer both stored: nothing of the call is still on its way.
    await expect.poll(async () => (await recorded()).map((conversation) => conversation.messageCount), { timeout: 10_000 }).toEqual([2]);
    const [first] = await recorded();
    expect((await fetch(`${servers.open.url}/api/conversations/${first.id}`, { method: "DELETE" })).status).toBe(204);
    // The proxy trusts a looked-up conversation this long by design (lib/proxy/conversations.ts): past it, the deletion is what it sees.
    await new Promise((resolve) => setTimeout(resolve, CONVERSATION_CACHE_MS + 200));
    await ask("second");
    await expect.poll(async () => (await recorded()).map((conversation) => conversation.messageCount), { timeout: 10_000 }).toEqual([2]);
    const [second] = await recorded();
    expect(second.id).not.toBe(first.id);
    expect(servers.open.output()).not.toContain("could not record");
  });
});
