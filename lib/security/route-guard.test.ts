import { describe, expect, it, vi } from "vitest";
import { securityConfigOf } from "./guard";
import { plainRouteOf } from "@/lib/server/routes";
import { guardRoute } from "./route-guard";

const TOKEN = "a-long-enough-access-token-0123";
const open = securityConfigOf({});
const locked = securityConfigOf({ CONTEXT_LAB_TOKEN: TOKEN });

function post(path: string, headers: Record<string, string> = {}, body = "{}", signal?: AbortSignal): Request {
  const length = String(new TextEncoder().encode(body).length);
  return new Request(`http://127.0.0.1:3000${path}`, {
    method: "POST",
    body,
    signal,
    headers: { host: "127.0.0.1:3000", "content-type": "application/json", "content-length": length, ...headers },
  });
}

describe("guardRoute: the guard run by a route the request hook skips", () => {
  it("[SEC-1] refuses a rebinding Host in the protocol's shape without calling the route", async () => {
    const handler = vi.fn(() => new Response("never"));
    const anthropic = await guardRoute(handler, open)(post("/api/v1/messages", { host: "evil.example:3000" }));
    expect(anthropic.status).toBe(403);
    expect(await anthropic.json()).toMatchObject({ type: "error", error: { type: "permission_error" } });
    const openai = await guardRoute(handler, open)(post("/api/v1/chat/completions", { host: "evil.example:3000" }));
    expect(await openai.json()).toMatchObject({ error: { code: "forbidden_host", type: "invalid_request_error" } });
    expect(handler).not.toHaveBeenCalled();
  });

  it("[SEC-2] [SEC-6] refuses another origin, a text/plain body and a body without a length", async () => {
    const handler = vi.fn(() => new Response("never"));
    const route = guardRoute(handler, open);
    expect((await route(post("/api/v1/chat/completions", { origin: "http://evil.example" }))).status).toBe(403);
    expect((await route(post("/api/v1/chat/completions", { "content-type": "text/plain" }))).status).toBe(415);
    const chunked = post("/api/v1/chat/completions");
    const unsized = new Request(chunked, {
      headers: [...[...chunked.headers].filter(([name]) => name !== "content-length"), ["transfer-encoding", "chunked"]],
    });
    expect((await route(unsized)).status).toBe(411);
    expect(handler).not.toHaveBeenCalled();
  });

  it("[SEC-3] [SEC-4] needs the token, and hands the route its request without it, body and all", async () => {
    let seen: { authorization: string | null; body: string } | undefined;
    const route = guardRoute(async (request) => {
      seen = { authorization: request.headers.get("authorization"), body: await request.text() };
      return Response.json({ ok: true });
    }, locked);
    const outsider = await route(post("/api/v1/chat/completions", { authorization: "Bearer ctxlab-outsider" }));
    expect(outsider.status).toBe(401);
    expect(await outsider.json()).toMatchObject({ error: { code: "unauthorized", type: "authentication_error" } });
    expect(seen).toBeUndefined();

    const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "hé" }] });
    const agent = await route(post("/api/v1/chat/completions", { authorization: `Bearer ctxlab-label~${TOKEN}` }, body));
    expect(agent.status).toBe(200);
    expect(seen).toEqual({ authorization: "Bearer ctxlab-label", body });
  });

  it("without a token, hands the route the request itself and answers with the route's own response: nothing is copied", async () => {
    const incoming = post("/api/v1/chat/completions", { authorization: "Bearer ctxlab-label" });
    const own = Response.json({ ok: true });
    let seen: Request | undefined;
    const answer = await guardRoute((request) => {
      seen = request;
      return own;
    }, open)(incoming);
    expect(seen).toBe(incoming);
    expect(answer).toBe(own);
    expect(answer.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("[SEC-5] sets the security headers on refusals and on answers, also answers whose headers cannot change", async () => {
    const refused = await guardRoute(() => new Response(), open)(post("/api/v1/models", { host: "evil.example" }));
    const redirected = await guardRoute(() => Response.redirect("http://127.0.0.1:3000/elsewhere", 307), open)(post("/api/v1/models"));
    expect(redirected.status).toBe(307);
    expect(redirected.headers.get("location")).toBe("http://127.0.0.1:3000/elsewhere");
    for (const response of [refused, redirected]) {
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    }
  });

  it("the route sees the agent hang up: its request's signal follows the incoming one", async () => {
    const agent = new AbortController();
    let aborted = false;
    const answering = guardRoute(async (request) => {
      // The agent may have hung up before the route starts.
      if (!request.signal.aborted) await new Promise<void>((resolve) => request.signal.addEventListener("abort", () => resolve(), { once: true }));
      aborted = request.signal.aborted;
      return new Response(null, { status: 499 });
    }, open)(post("/api/v1/chat/completions", {}, "{}", agent.signal));
    agent.abort();
    expect((await answering).status).toBe(499);
    expect(aborted).toBe(true);
  });
});

describe("guardRoute: bodies (BD-3)", () => {
  it("[BD-3] leaves the body to the route, which reads it once, byte for byte, a byte-order mark included", async () => {
    let seen: Uint8Array | undefined;
    let unread = false;
    const route = guardRoute(async (request) => {
      unread = !request.bodyUsed;
      seen = new Uint8Array(await request.arrayBuffer());
      return Response.json({ ok: true });
    }, open);
    const body = `\uFEFF{"messages":[{"role":"user","content":"hé"}]}`;
    expect((await route(post("/api/v1/chat/completions", {}, body))).status).toBe(200);
    expect(unread).toBe(true);
    expect(seen).toEqual(new TextEncoder().encode(body));
  });

  it("[BD-3] the proxy's routes refuse a body nesting past the limit in the protocol's shape, on their one read, before parsing it", async () => {
    const deep = `{"model":"m","messages":[{"role":"user","content":"q","x":${"[".repeat(5_000)}${"]".repeat(5_000)}}]}`;
    const openai = await plainRouteOf("/api/v1/responses")!.POST(post("/api/v1/responses", {}, deep));
    expect(openai.status).toBe(400);
    expect(await openai.json()).toMatchObject({ error: { code: "invalid_json", type: "invalid_request_error", message: expect.stringContaining("line 1") } });
    const anthropic = await plainRouteOf("/api/v1/messages")!.POST(post("/api/v1/messages", { "anthropic-version": "2023-06-01" }, "[".repeat(20_000)));
    expect(anthropic.status).toBe(400);
    expect(await anthropic.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: expect.stringContaining("nest") } });
    const counted = await plainRouteOf("/api/v1/messages/count_tokens")!.POST(post("/api/v1/messages/count_tokens", {}, "{".repeat(200)));
    expect(counted.status).toBe(400);
    expect(await counted.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });
});
