import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROXY_PATHS } from "@/lib/server/routes";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/tests/support/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/tests/support/fake-openai";
import { rawRequest, startServerPair, type NextServer, type ServerPair } from "@/tests/support/next-server";

// The request guard against the real server (`next start`): what a DNS-rebinding page, another
// origin's form or no-cors fetch and a missing token get, on both databases.

const TOKEN = "test-access-token-5f0c2a9e81d4";
const UPSTREAM_KEY = "sk-upstream-key-for-security-tests";

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "content-type": "application/json" } });

/** The recording proxy's routes, and one path under /api/v1 it does not serve. */
function proxyRoutePaths(): string[] {
  return [...PROXY_PATHS, "/api/v1/unserved/path"];
}

async function countConversations(server: NextServer, headers: Record<string, string> = {}): Promise<number> {
  const response = await rawRequest(server.url, { path: "/api/conversations?limit=500", headers });
  return response.json<{ conversations: unknown[] }>().conversations.length;
}

describe.each(TEST_PROVIDERS)("request guard on next start (%s)", (provider) => {
  let database: TestDatabase;
  let upstream: FakeOpenAI;
  let servers: ServerPair;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
    const env = {
      CONTEXT_LAB_UPSTREAM_BASE_URL: upstream.baseUrl,
      CONTEXT_LAB_UPSTREAM_API_KEY: UPSTREAM_KEY,
      CONTEXT_LAB_UPSTREAM_SETTINGS_FILE: path.join(os.tmpdir(), `context-lab-upstream-${provider}-${process.pid}.json`),
    };
    servers = await startServerPair({ databaseUrl: database.url, env, token: TOKEN });
  }, 120_000);

  afterAll(async () => {
    await servers?.stop();
    await upstream?.close();
    await database?.cleanup();
  });

  it("[SEC-1] refuses Host: evil.example, as a DNS-rebinding page sends it, with 403 JSON and reads nothing", async () => {
    const port = servers.open.port;
    for (const path of ["/", "/api/conversations", "/api/settings/upstream", "/api/live/conversations"]) {
      const response = await rawRequest(servers.open.url, { path, headers: { host: `evil.example:${port}` } });
      expect(response.status).toBe(403);
      expect(response.json()).toMatchObject({ error: { code: "forbidden_host" } });
    }
  });

  it("[SEC-1] refuses the rebinding page's writes: the upstream it tries to set stays as it was", async () => {
    const before = await rawRequest(servers.open.url, { path: "/api/settings/upstream" });
    const attack = await rawRequest(servers.open.url, {
      method: "PUT",
      path: "/api/settings/upstream",
      ...json({ baseUrl: "http://evil.example/v1" }),
      headers: { host: `evil.example:${servers.open.port}`, origin: `http://evil.example:${servers.open.port}`, "content-type": "application/json" },
    });
    expect(attack.status).toBe(403);
    const after = await rawRequest(servers.open.url, { path: "/api/settings/upstream" });
    expect(after.body).toBe(before.body);
  });

  it("[SEC-1] [SEC-5] every route of the recording proxy guards itself: a rebinding Host is refused on each, in its protocol's shape, with the security headers", async () => {
    const routes = proxyRoutePaths();
    const forwarded = upstream.requests.length;
    expect(routes).toEqual(expect.arrayContaining(["/api/v1/chat/completions", "/api/v1/messages", "/api/v1/models", "/api/v1/unserved/path"]));
    for (const path of routes) {
      for (const method of ["GET", "POST", "PUT", "DELETE", "OPTIONS"]) {
        const response = await rawRequest(servers.open.url, {
          method,
          path,
          ...json({}),
          headers: { ...json({}).headers, host: `evil.example:${servers.open.port}` },
        });
        expect([path, method, response.status]).toEqual([path, method, 403]);
        const anthropic = path.startsWith("/api/v1/messages");
        expect(response.json()).toMatchObject(anthropic ? { error: { type: "permission_error" } } : { error: { code: "forbidden_host" } });
        expect(response.headers["x-content-type-options"]).toBe("nosniff");
      }
    }
    expect(upstream.requests).toHaveLength(forwarded);
    const answered = await rawRequest(servers.open.url, { path: "/api/v1/models" });
    expect(answered.status).toBe(200);
    expect(answered.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(answered.headers["x-frame-options"]).toBe("DENY");
  });

  it("[SEC-2] refuses another origin's text/plain form and no-cors fetch, and a same-origin text/plain body", async () => {
    const before = await countConversations(servers.open);
    const body = JSON.stringify({ title: "planted", messages: [{ role: "user", content: "hi" }] });
    const crossOrigin = { origin: "http://localhost:9999", "sec-fetch-site": "same-site", "sec-fetch-mode": "no-cors" };
    const form = await rawRequest(servers.open.url, {
      method: "POST",
      path: "/api/conversations",
      body: `title=planted`,
      headers: { ...crossOrigin, "content-type": "application/x-www-form-urlencoded" },
    });
    const noCors = await rawRequest(servers.open.url, {
      method: "POST",
      path: "/api/conversations",
      body,
      headers: { ...crossOrigin, "content-type": "text/plain;charset=UTF-8" },
    });
    const proxied = await rawRequest(servers.open.url, {
      method: "POST",
      path: "/api/v1/chat/completions",
      body,
      headers: { ...crossOrigin, "content-type": "text/plain" },
    });
    for (const response of [form, noCors, proxied]) expect(response.status).toBe(403);
    const plain = await rawRequest(servers.open.url, { method: "POST", path: "/api/conversations", body, headers: { "content-type": "text/plain" } });
    expect(plain.status).toBe(415);
    expect(plain.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
    expect(await countConversations(servers.open)).toBe(before);
    expect(upstream.requests.filter((request) => request.path.includes("chat"))).toHaveLength(0);
  });

  it("[SEC-5] sets the security headers and stamps Next's scripts with the CSP nonce", async () => {
    const page = await rawRequest(servers.open.url, { path: "/" });
    expect(page.status).toBe(200);
    const policy = String(page.headers["content-security-policy"]);
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(policy).toContain("frame-ancestors 'none'");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    const scripts = [...page.body.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
  });

  it("[S7] answers unknown API paths, unserved methods and unknown live streams in JSON", async () => {
    const missing = await rawRequest(servers.open.url, { path: "/api/no-such-route" });
    expect([missing.status, missing.headers["content-type"]]).toEqual([404, expect.stringContaining("application/json")]);
    expect(missing.json()).toMatchObject({ error: { code: "not_found" } });
    const wrongMethod = await rawRequest(servers.open.url, { method: "PUT", path: "/api/health" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(wrongMethod.json()).toMatchObject({ error: { code: "method_not_allowed" } });
    const live = await rawRequest(servers.open.url, { path: "/api/live/conversations/no-such-conversation" });
    expect(live.status).toBe(404);
    expect(live.json()).toMatchObject({ error: { code: "not_found", resource: "conversation" } });
  });

  it("[SEC-3] with a token: pages send the browser to the login page, APIs and live streams answer 401 JSON", async () => {
    const page = await rawRequest(servers.locked.url, { path: "/c/anything?branch=b" });
    expect(page.status).toBe(303);
    expect(page.headers.location).toMatch(/\/login\?next=%2Fc%2Fanything%3Fbranch%3Db$/);
    for (const path of ["/api/conversations", "/api/health", "/api/live/conversations", "/api/settings/upstream", "/api/nowhere"]) {
      const response = await rawRequest(servers.locked.url, { path });
      expect(response.status).toBe(401);
      expect(response.json()).toMatchObject({ error: { code: "unauthorized" } });
    }
    const write = await rawRequest(servers.locked.url, { method: "POST", path: "/api/conversations", ...json({ title: "x" }) });
    expect(write.status).toBe(401);
    expect((await rawRequest(servers.locked.url, { path: "/api/health", headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    // The site's icon carries no data: the login page shows it before anyone has signed in.
    const icon = await rawRequest(servers.locked.url, { path: "/icon.svg" });
    expect(icon.status).toBe(200);
    expect(icon.headers["content-type"]).toMatch(/^image\/svg\+xml/);
  });

  it("[SEC-3] signs a browser in with an HttpOnly, SameSite=Strict cookie that is not the token", async () => {
    const wrong = await rawRequest(servers.locked.url, { method: "POST", path: "/api/login", ...json({ token: "not-the-token-at-all" }) });
    expect(wrong.status).toBe(401);
    const login = await rawRequest(servers.locked.url, { method: "POST", path: "/api/login", ...json({ token: TOKEN }) });
    expect(login.status).toBe(204);
    const cookie = String(login.headers["set-cookie"]);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(";")[0];
    expect((await rawRequest(servers.locked.url, { path: "/", headers: { cookie: session } })).status).toBe(200);
    expect((await rawRequest(servers.locked.url, { path: "/api/conversations", headers: { cookie: session } })).status).toBe(200);
  });

  it("[SEC-4] agents still record through the proxy with the token as their API key, which never reaches the upstream or a log", async () => {
    const before = upstream.requests.length;
    const labelled = new OpenAI({ baseURL: `${servers.locked.url}/api/v1`, apiKey: `ctxlab-guarded-${provider}~${TOKEN}`, maxRetries: 0 });
    const reply = await labelled.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "first" }] });
    expect(reply.choices[0].message.content).toBe("echo: first");
    const bare = new OpenAI({
      baseURL: `${servers.locked.url}/api/v1`,
      apiKey: TOKEN,
      maxRetries: 0,
      defaultHeaders: { "X-Context-Lab-Conversation": `header-${provider}` },
    });
    await bare.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "second" }] });
    const outsider = new OpenAI({ baseURL: `${servers.locked.url}/api/v1`, apiKey: `ctxlab-outsider`, maxRetries: 0 });
    await expect(outsider.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "x" }] })).rejects.toMatchObject({ status: 401 });

    const forwarded = upstream.requests.slice(before);
    expect(forwarded).toHaveLength(2);
    for (const request of forwarded) {
      expect(request.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
      expect(JSON.stringify(request.headers)).not.toContain(TOKEN);
    }
    const auth = { authorization: `Bearer ${TOKEN}` };
    await expect
      .poll(
        async () => {
          const { conversations } = (await rawRequest(servers.locked.url, { path: "/api/conversations?limit=500", headers: auth })).json<{
            conversations: { recordKey: string | null }[];
          }>();
          return conversations.map((conversation) => conversation.recordKey);
        },
        { timeout: 10_000 },
      )
      .toEqual(expect.arrayContaining([`guarded-${provider}`, `header-${provider}`]));
    const listing = (await rawRequest(servers.locked.url, { path: "/api/conversations?limit=500", headers: auth })).body;
    expect(listing).not.toContain(TOKEN);
    expect(servers.locked.output()).not.toContain(TOKEN);
  });
});
