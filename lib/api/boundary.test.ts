import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as conversationsRoute from "@/app/api/conversations/route";
import * as importRoute from "@/app/api/conversations/import/route";
import * as messagesRoute from "@/app/api/branches/[branchId]/messages/route";
import * as forkRoute from "@/app/api/branches/[branchId]/fork/route";
import * as callsRoute from "@/app/api/conversations/[id]/calls/route";
import * as overviewRoute from "@/app/api/conversations/[id]/overview/route";
import * as modelRoute from "@/app/api/models/[id]/route";
import * as upstreamRoute from "@/app/api/settings/upstream/route";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";
import { MAX_STORED_INTEGER } from "./json-input";

const NUL = "a\u0000b";
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const toolCall = (argumentsText: string) => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: argumentsText } }],
});

describe.each(TEST_PROVIDERS)("one boundary for every JSON input (%s)", (provider) => {
  useApiTestDatabase(provider);

  async function branchWithOneMessage(): Promise<{ conversationId: string; branchId: string }> {
    const created = await call(conversationsRoute.POST, { body: { title: "boundary", messages: [{ role: "user", content: "hi" }] } });
    expect(created.status).toBe(201);
    return { conversationId: created.body.conversation.id, branchId: created.body.branch.id };
  }

  it("[BD-3] refuses U+0000 with the field named, the same on both databases: create, append, import, query", async () => {
    const created = await call(conversationsRoute.POST, { body: { title: "t", messages: [{ role: "user", content: NUL }] } });
    expect(created.status).toBe(400);
    expect(created.body.error.issues).toEqual([expect.objectContaining({ path: "messages[0].content" })]);
    const { conversationId, branchId } = await branchWithOneMessage();
    const appended = await call(messagesRoute.POST, {
      params: { branchId },
      body: {
        messages: [
          { role: "user", content: "ok" },
          { role: "user", content: NUL },
        ],
      },
    });
    expect(appended.status).toBe(400);
    expect(appended.body.error.issues[0].path).toBe("messages[1].content");
    const imported = await call(importRoute.POST, {
      url: "/api/conversations/import",
      body: JSON.stringify({
        messages: [
          { role: "user", content: "hello" },
          { role: "assistant", content: NUL },
        ],
      }),
      headers: { "content-type": "application/json" },
    });
    expect(imported.status).toBe(400);
    expect(imported.body.error).toMatchObject({ code: "import_failed", issues: [{ path: "messages[1].content", messageIndex: 1, conversationIndex: 0 }] });
    const titled = await call(importRoute.POST, { url: "/api/conversations/import?title=a%00b", body: JSON.stringify([{ role: "user", content: "x" }]) });
    expect(titled.status).toBe(400);
    expect(titled.body.error.issues[0].path).toBe("title");
    const cursor = await call(callsRoute.GET, { url: "/api/x?after=%00", params: { id: conversationId } });
    expect(cursor.status).toBe(400);
    const overview = await call(overviewRoute.GET, { url: "/api/x?branch=%00", params: { id: conversationId } });
    expect(overview.status).toBe(400);
    expect(overview.body.error.issues[0].path).toBe("branch");
    // Nothing was written by the refused requests.
    const history = await call(messagesRoute.GET, { params: { branchId } });
    expect(history.body.messages).toHaveLength(1);
    expect((await call(conversationsRoute.GET)).body.conversations).toHaveLength(1);
  });

  it("[BD-3] refuses tool arguments nested 5,000 deep in create, append and import, and `[` x 20,000, with 400", async () => {
    const deep = nested(5_000);
    const created = await call(conversationsRoute.POST, { body: { title: "t", messages: [{ role: "user", content: "q" }, toolCall(deep)] } });
    expect(created.status).toBe(400);
    expect(created.body.error.issues[0].path).toBe("messages[1].tool_calls[0].function.arguments");
    const { branchId } = await branchWithOneMessage();
    const appended = await call(messagesRoute.POST, { params: { branchId }, body: { messages: [toolCall(deep)] } });
    expect(appended.status).toBe(400);
    const openai = await call(importRoute.POST, {
      url: "/api/conversations/import",
      body: JSON.stringify({ messages: [{ role: "user", content: "q" }, toolCall(deep)] }),
    });
    expect(openai.status).toBe(400);
    expect(openai.body.error.issues[0]).toMatchObject({ path: "messages[1].tool_calls[0].function.arguments", messageIndex: 1 });
    const anthropicInput = `{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f","input":${deep}}]}]}`;
    const anthropic = await call(importRoute.POST, { url: "/api/conversations/import", body: anthropicInput });
    expect(anthropic.status).toBe(400);
    expect(anthropic.body.error.issues[0]).toMatchObject({ line: 1, column: expect.any(Number) });
    for (const text of ["[".repeat(20_000), `${"[".repeat(20_000)}${"]".repeat(20_000)}`]) {
      const brackets = await call(importRoute.POST, { url: "/api/conversations/import", body: text });
      expect(brackets.status).toBe(400);
      const body = await call(conversationsRoute.POST, { body: text });
      expect(body.status).toBe(400);
      expect(body.body.error.code).toBe("invalid_json");
    }
    expect((await call(conversationsRoute.GET)).body.conversations).toHaveLength(1);
  });

  it("[BD-4] refuses counts and positions an Int column cannot hold, and accepts the largest one it can", async () => {
    const { branchId } = await branchWithOneMessage();
    for (const position of [2 ** 31, 2 ** 53 + 2, 1e300]) {
      const forked = await call(forkRoute.POST, { params: { branchId }, body: { position } });
      expect(forked.status).toBe(400);
      expect(forked.body.error.issues[0].path).toBe("position");
      const appended = await call(messagesRoute.POST, { params: { branchId }, body: { messages: [{ role: "user", content: "x" }], expectedLength: position } });
      expect(appended.status).toBe(400);
      expect(appended.body.error.issues[0].path).toBe("expectedLength");
    }
    for (const query of [`from=${2 ** 31}`, `to=${2 ** 31}`, "from=1e999"]) {
      expect((await call(messagesRoute.GET, { url: `/api/x?${query}`, params: { branchId } })).status).toBe(400);
    }
    expect((await call(conversationsRoute.GET, { url: `/api/x?offset=${2 ** 31}` })).status).toBe(400);
    const largest = await call(forkRoute.POST, { params: { branchId }, body: { position: MAX_STORED_INTEGER } });
    expect(largest.status).toBe(400);
    expect(largest.body.error.code).toBe("invalid_argument");
    const page = await call(messagesRoute.GET, { url: `/api/x?from=${MAX_STORED_INTEGER}`, params: { branchId } });
    expect(page).toMatchObject({ status: 200, body: { messages: [], next: null } });
  });

  it("[BD-2] decodes a model id once: Next hands `%25` over as `%`, `%2F` as `/`", async () => {
    const input = {
      label: "Acme",
      provider: "other",
      contextWindow: 32_000,
      maxOutputTokens: 2_000,
      tokenizer: { encoding: "cl100k_base", exact: false },
      mediaRule: "openai",
    };
    const percent = await call(modelRoute.PUT, { method: "PUT", params: { id: "%" }, body: input });
    expect(percent.status).toBe(400);
    expect(percent.body.error.issues[0].path).toBe("id");
    const slashed = await call(modelRoute.PUT, { method: "PUT", params: { id: "acme/7b%41" }, body: input });
    expect(slashed.status).toBe(400);
    const saved = await call(modelRoute.PUT, { method: "PUT", params: { id: "acme/7b" }, body: input });
    expect(saved).toMatchObject({ status: 200, body: { model: { id: "acme/7b" } } });
    expect((await call(modelRoute.DELETE, { method: "DELETE", params: { id: "acme/7b" } })).status).toBe(204);
  });
});

describe("upstream keys (BD-6)", () => {
  it("[BD-6] refuses a key holding anything but visible ASCII when it is saved, naming the character", async () => {
    for (const key of ["sk-abc\u00e9def", "sk-abc\u201cdef", "sk-abc\u00a0def", "sk-ab c", "sk-\u0000"]) {
      const refused = await call(upstreamRoute.PUT, { method: "PUT", body: { apiKey: key } });
      expect(refused.status, key).toBe(400);
      expect(refused.body.error.issues[0].path).toBe("apiKey");
    }
    const anthropic = await call(upstreamRoute.PUT, { method: "PUT", body: { anthropic: { apiKey: "sk-ant-\u2028x" } } });
    expect(anthropic.status).toBe(400);
    expect(anthropic.body.error.issues[0]).toMatchObject({ path: "anthropic.apiKey", message: expect.stringContaining("U+2028") });
  });
});

const API_ROOT = path.join(import.meta.dirname, "..", "..", "app", "api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every route file under app/api, as a URL path with sample params. */
function routeFiles(): { file: string; url: string }[] {
  return fs
    .readdirSync(API_ROOT, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => ({
      file,
      url: `/api/${path.dirname(file).split(path.sep).join("/")}`.replace(/\[\.\.\.\w+\]/, "unserved/path").replace(/\[(\w+)\]/g, "x"),
    }));
}

type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response> | Response;

describe("methods (BD-5)", () => {
  it.each(routeFiles())("[BD-5] $url answers every method: OPTIONS names the served ones, the rest are 405 JSON with Allow", async ({ file, url }) => {
    const module = (await import(path.join(API_ROOT, file))) as Record<string, Handler | undefined>;
    for (const method of [...METHODS, "OPTIONS"]) expect(typeof module[method], `${file} ${method}`).toBe("function");
    const options = await (module.OPTIONS as Handler)(new Request(`http://127.0.0.1${url}`, { method: "OPTIONS", headers: { host: "127.0.0.1" } }), {
      params: Promise.resolve({}),
    });
    if (url.endsWith("/unserved/path")) {
      expect(options.status).toBe(404);
      return;
    }
    expect(options.status).toBe(204);
    const allow = options.headers.get("allow") ?? "";
    expect(allow).toMatch(/OPTIONS$/);
    for (const method of METHODS.filter((method) => !allow.split(", ").includes(method))) {
      const response = await (module[method] as Handler)(new Request(`http://127.0.0.1${url}`, { method, headers: { host: "127.0.0.1" } }), {
        params: Promise.resolve({}),
      });
      expect(response.status, `${method} ${url}`).toBe(405);
      // The recording proxy's 405 leaves OPTIONS out of its Allow; the methods it serves are the same.
      const served = (header: string | null) => (header ?? "").split(", ").filter((name) => name !== "OPTIONS");
      expect(served(response.headers.get("allow"))).toEqual(served(allow));
      expect((await response.json()).error).toBeTruthy();
    }
  });
});
