import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedLoopbackPort, listenOnLoopback, type LoopbackListener } from "@/tests/support/loopback";
import { createApiClient } from "./api";
import { ApiError } from "./errors";

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
}

/** A fetch that records each call and answers with the next queued Response. */
function fakeFetch(...responses: Response[]) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), method: init.method ?? "GET", headers: new Headers(init.headers), body: init.body as string | undefined });
    const next = responses.shift();
    if (!next) throw new Error("no response queued");
    return next;
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

const json = (body: unknown, status = 200) => Response.json(body, { status });

describe("createApiClient", () => {
  it("imports raw text with the filename and title in the query", async () => {
    const { fetch, calls } = fakeFetch(json({ format: "openai", conversations: [] }, 201));
    const client = createApiClient({ fetch, baseUrl: "http://lab.test" });
    const result = await client.importConversations('[{"role":"user","content":"hi"}]', { filename: "a b.json", title: "Trip" });
    expect(result.format).toBe("openai");
    expect(calls[0].method).toBe("POST");
    expect(calls[0].url).toBe("http://lab.test/api/conversations/import?filename=a+b.json&title=Trip");
    expect(calls[0].headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect(calls[0].body).toBe('[{"role":"user","content":"hi"}]');
  });

  it("encodes ids in paths and unwraps list envelopes", async () => {
    const checkpoint = { id: "c1", branchId: "b/1", version: 0, inherited: false };
    const { fetch, calls } = fakeFetch(json({ checkpoints: [checkpoint] }));
    const client = createApiClient({ fetch });
    await expect(client.listCheckpoints("b/1")).resolves.toEqual([checkpoint]);
    expect(calls[0].url).toBe("/api/branches/b%2F1/checkpoints");
  });

  it("posts a fork as JSON and returns the new branch", async () => {
    const branch = { id: "b2", parentId: "b1", forkPosition: 17 };
    const { fetch, calls } = fakeFetch(json({ branch }, 201));
    const client = createApiClient({ fetch });
    await expect(client.forkBranch("b1", { position: 17, name: "retry" })).resolves.toEqual(branch);
    expect(calls[0]).toMatchObject({ method: "POST", url: "/api/branches/b1/fork", body: '{"position":17,"name":"retry"}' });
    expect(calls[0].headers.get("content-type")).toBe("application/json");
  });

  it("asks the checkpoint diff with from and to", async () => {
    const diff = { from: { id: "a" }, to: { id: "b" }, diff: { added: { x: 1 }, updated: {}, removed: {} } };
    const { fetch, calls } = fakeFetch(json(diff));
    await expect(createApiClient({ fetch }).diffCheckpoints("a", "b")).resolves.toEqual(diff);
    expect(calls[0].url).toBe("/api/checkpoints/diff?from=a&to=b");
  });

  it("leaves undefined query values out of the history range", async () => {
    const { fetch, calls } = fakeFetch(json({ messages: [], next: null }), json({ messages: [], next: null }));
    const client = createApiClient({ fetch });
    await client.getMessages("b1");
    await client.getMessages("b1", { from: 0, to: 17 });
    expect(calls.map((call) => call.url)).toEqual(["/api/branches/b1/messages", "/api/branches/b1/messages?from=0&to=17"]);
  });

  it("reads a history page by page until the server says there is no next page, keeping the range's end", async () => {
    const record = (position: number) => ({ position, message: { role: "user", content: `m${position}` } });
    const { fetch, calls } = fakeFetch(
      json({ messages: [record(5), record(6)], next: 7 }),
      json({ messages: [record(7), record(8)], next: 9 }),
      json({ messages: [record(9)], next: null }),
    );
    const messages = await createApiClient({ fetch }).getMessages("b1", { from: 5, to: 10 });
    expect(messages.map((entry) => entry.position)).toEqual([5, 6, 7, 8, 9]);
    expect(calls.map((call) => call.url)).toEqual([
      "/api/branches/b1/messages?from=5&to=10",
      "/api/branches/b1/messages?from=7&to=10",
      "/api/branches/b1/messages?from=9&to=10",
    ]);
  });

  it("resolves a 204 delete to undefined", async () => {
    const { fetch, calls } = fakeFetch(new Response(null, { status: 204 }));
    await expect(createApiClient({ fetch }).deleteConversation("c1")).resolves.toBeUndefined();
    expect(calls[0].method).toBe("DELETE");
  });

  it("previews the prompt with GET and the typed turn, never asking to compact", async () => {
    const preview = { status: "ok", sections: [], messages: [], tokens: {}, budget: {} };
    const { fetch, calls } = fakeFetch(json(preview), json(preview), json(preview));
    const client = createApiClient({ fetch });
    await client.previewPrompt("b1");
    await client.previewPrompt("b1", { userTurn: "refund?" });
    await client.previewPrompt("b1", { userTurn: "refund?", settings: { tokenBudget: 500 } });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "GET /api/branches/b1/prompt",
      "GET /api/branches/b1/prompt?userTurn=refund%3F",
      "POST /api/branches/b1/prompt",
    ]);
    expect(JSON.parse(calls[2].body ?? "")).toEqual({ userTurn: "refund?", settings: { tokenBudget: 500 }, compact: false });
  });

  it("asks to checkpoint now with force", async () => {
    const { fetch, calls } = fakeFetch(json({ compaction: null }));
    await expect(createApiClient({ fetch }).compactBranch("b1", { force: true })).resolves.toEqual({ compaction: null });
    expect(calls[0]).toMatchObject({ method: "POST", url: "/api/branches/b1/compact", body: '{"force":true}' });
  });

  it("searches with q and returns the hits", async () => {
    const hit = { kind: "summary", id: "s1", branchId: "b1", text: "refund", score: 1.5 };
    const { fetch, calls } = fakeFetch(json({ hits: [hit] }));
    await expect(createApiClient({ fetch }).search("b1", "refund policy", { limit: 5 })).resolves.toEqual([hit]);
    expect(calls[0].url).toBe("/api/branches/b1/search?q=refund+policy&limit=5");
  });
});

describe("ApiError", () => {
  it("parses code, message, issues and extra fields of an error body", async () => {
    const body = { error: { code: "invalid_request", message: "position: required", issues: [{ path: "position", message: "required" }], resource: "branch" } };
    const { fetch } = fakeFetch(json(body, 400));
    const error = await createApiClient({ fetch })
      .forkBranch("b1", { position: -1 })
      .catch((reason: unknown) => reason);
    expect(ApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, code: "invalid_request", message: "position: required", issues: [{ path: "position", message: "required" }] });
    expect((error as ApiError).details).toEqual({ resource: "branch" });
  });

  it("keeps line and column of an import issue", async () => {
    const body = { error: { code: "import_failed", message: "bad", issues: [{ path: "", message: "Unexpected token", line: 3, column: 7 }] } };
    const { fetch } = fakeFetch(json(body, 400));
    const error = (await createApiClient({ fetch })
      .importConversations("{")
      .catch((reason: unknown) => reason)) as ApiError;
    expect(error.issues).toEqual([{ path: "", message: "Unexpected token", line: 3, column: 7 }]);
  });

  it("names the status and the text of a body that is not the API's error shape", async () => {
    const { fetch } = fakeFetch(new Response("Bad Gateway from proxy", { status: 502 }));
    const error = (await createApiClient({ fetch })
      .health()
      .catch((reason: unknown) => reason)) as ApiError;
    expect(error).toMatchObject({ status: 502, code: "http_502" });
    expect(error.message).toContain("GET /api/health failed with HTTP 502: Bad Gateway from proxy");
  });

  it("reports a success body that is not JSON as invalid_response", async () => {
    const { fetch } = fakeFetch(new Response("<html>", { status: 200 }));
    const error = (await createApiClient({ fetch })
      .getBranch("b1")
      .catch((reason: unknown) => reason)) as ApiError;
    expect(error).toMatchObject({ status: 200, code: "invalid_response" });
  });
});

describe("createApiClient over a real HTTP server", () => {
  let listener: LoopbackListener;
  let baseUrl: string;

  beforeAll(async () => {
    const server = createServer((request, response) => {
      if (request.url === "/api/health") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ ok: true, database: "sqlite" }));
        return;
      }
      if (request.url?.startsWith("/api/slow")) return; // never answers: for the abort test
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { code: "not_found", message: `branch 'nope' does not exist` } }));
    });
    listener = await listenOnLoopback(server);
    baseUrl = `http://127.0.0.1:${listener.port}`;
  });

  afterAll(() => listener.close());

  it("reads a JSON answer", async () => {
    await expect(createApiClient({ baseUrl }).health()).resolves.toEqual({ ok: true, database: "sqlite" });
  });

  it("turns a 404 body into ApiError not_found", async () => {
    await expect(createApiClient({ baseUrl }).getBranch("nope")).rejects.toMatchObject({
      status: 404,
      code: "not_found",
      message: "branch 'nope' does not exist",
    });
  });

  it("turns a refused connection into a network_error with status 0", async () => {
    const port = await closedLoopbackPort();
    const error = (await createApiClient({ baseUrl: `http://127.0.0.1:${port}` })
      .health()
      .catch((reason: unknown) => reason)) as ApiError;
    expect(ApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 0, code: "network_error" });
    expect(error.message).toMatch(/^GET \/api\/health could not reach the server/);
  });

  it("turns an abort into an ApiError the caller can recognise", async () => {
    const controller = new AbortController();
    const slow = createApiClient({ baseUrl: `${baseUrl}/api/slow` })
      .health({ signal: controller.signal })
      .catch((reason: unknown) => reason);
    controller.abort();
    const error = await slow;
    expect(ApiError.isAbort(error)).toBe(true);
    expect(error).toMatchObject({ status: 0, code: "aborted" });
  });
});
