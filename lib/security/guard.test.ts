import { describe, expect, it } from "vitest";
import { sessionValueOf, SESSION_COOKIE } from "./access";
import { guardRequest, safeReturnPath, securityConfigOf, type GuardedRequest } from "./guard";
import { MAX_REQUEST_BYTES } from "./origin";

const TOKEN = "a-long-enough-access-token-0123";
const open = securityConfigOf({});
const locked = securityConfigOf({ CONTEXT_LAB_TOKEN: TOKEN });

function request(method: string, path: string, headers: Record<string, string> = {}): GuardedRequest {
  const url = new URL(path, "http://127.0.0.1:3000");
  return { method, pathname: url.pathname, search: url.search, headers: new Headers({ host: "127.0.0.1:3000", ...headers }) };
}

const json = { "content-type": "application/json", "content-length": "2" };

describe("request guard: Host", () => {
  it("[SEC-1] serves loopback names with or without a port", () => {
    for (const host of ["127.0.0.1:3000", "localhost:3000", "localhost", "[::1]:3000", "LOCALHOST:3000"]) {
      expect(guardRequest(request("GET", "/", { host }), open).action).toBe("pass");
    }
  });

  it("[SEC-1] refuses any other name, as a DNS-rebinding page sends it, with 403 JSON", () => {
    const decision = guardRequest(request("GET", "/api/conversations", { host: "evil.example:3000" }), open);
    expect(decision).toMatchObject({ action: "refuse", status: 403, code: "forbidden_host" });
    if (decision.action === "refuse") expect(JSON.stringify(decision.body)).toContain("evil.example:3000");
  });

  it("[SEC-1] refuses a request without Host", () => {
    const req = request("GET", "/");
    req.headers.delete("host");
    expect(guardRequest(req, open)).toMatchObject({ action: "refuse", code: "forbidden_host" });
  });

  it("[SEC-1] admits names from CONTEXT_LAB_ALLOWED_HOSTS, a leading dot for subdomains", () => {
    const config = securityConfigOf({ CONTEXT_LAB_ALLOWED_HOSTS: "lab.example.com, .team.example" });
    expect(guardRequest(request("GET", "/", { host: "lab.example.com" }), config).action).toBe("pass");
    expect(guardRequest(request("GET", "/", { host: "a.team.example:8080" }), config).action).toBe("pass");
    expect(guardRequest(request("GET", "/", { host: "evilteam.example" }), config).action).toBe("refuse");
  });
});

describe("request guard: origin and content type", () => {
  it("[SEC-2] refuses a cross-origin write, whatever its content type", () => {
    for (const type of ["text/plain", "application/json", "application/x-www-form-urlencoded"]) {
      const decision = guardRequest(
        request("POST", "/api/conversations", { origin: "http://evil.example", "content-type": type, "content-length": "2" }),
        open,
      );
      expect(decision).toMatchObject({ action: "refuse", status: 403, code: "forbidden_origin" });
    }
  });

  it("[SEC-2] refuses a cross-origin read and Origin: null", () => {
    expect(guardRequest(request("GET", "/api/conversations", { origin: "http://localhost:3001" }), open)).toMatchObject({ code: "forbidden_origin" });
    expect(guardRequest(request("GET", "/api/conversations", { origin: "null" }), open)).toMatchObject({ code: "forbidden_origin" });
  });

  it("[SEC-2] refuses another site's no-cors subresource loads but lets a user's navigation through", () => {
    const subresource = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors" };
    expect(guardRequest(request("GET", "/api/conversations", subresource), open)).toMatchObject({ code: "forbidden_origin" });
    expect(guardRequest(request("GET", "/", { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" }), open).action).toBe("pass");
  });

  it("[SEC-2] admits a same-origin JSON write", () => {
    expect(guardRequest(request("POST", "/api/conversations", { origin: "http://127.0.0.1:3000", ...json }), open).action).toBe("pass");
    expect(guardRequest(request("PATCH", "/api/conversations/x", json), open).action).toBe("pass");
  });

  it("[SEC-2] refuses bodies sent as text/plain, a form or multipart with 415", () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]) {
      const headers: Record<string, string> = { "content-length": "5", ...(type ? { "content-type": type } : {}) };
      expect(guardRequest(request("POST", "/api/v1/chat/completions", headers), open)).toMatchObject({ status: 415, code: "unsupported_media_type" });
    }
  });

  it("[SEC-2] admits application/x-ndjson only for imports", () => {
    const ndjson = { "content-type": "application/x-ndjson; charset=utf-8", "content-length": "9" };
    expect(guardRequest(request("POST", "/api/conversations/import", ndjson), open).action).toBe("pass");
    expect(guardRequest(request("POST", "/api/sessions", ndjson), open).action).toBe("pass");
    expect(guardRequest(request("POST", "/api/conversations", ndjson), open)).toMatchObject({ status: 415 });
  });

  it("[SEC-2] admits a write without a body (DELETE) with no content type", () => {
    expect(guardRequest(request("DELETE", "/api/conversations/x", { "content-length": "0" }), open).action).toBe("pass");
    expect(guardRequest(request("DELETE", "/api/conversations/x"), open).action).toBe("pass");
  });

  it("[SEC-6] refuses a chunked body (411) and a declared body over the request limit (413)", () => {
    expect(guardRequest(request("POST", "/api/conversations", { "content-type": "application/json", "transfer-encoding": "chunked" }), open)).toMatchObject({
      status: 411,
    });
    const big = { "content-type": "application/json", "content-length": String(64 * 1024 * 1024) };
    expect(guardRequest(request("POST", "/api/conversations", big), open)).toMatchObject({
      status: 413,
      code: "payload_too_large",
      body: { error: { bytes: 64 * 1024 * 1024, limit: MAX_REQUEST_BYTES } },
    });
  });

  it("[SEC-2] answers the recording proxy's routes in their protocol's error shape", () => {
    const openai = guardRequest(request("POST", "/api/v1/chat/completions", { "content-type": "text/plain", "content-length": "2" }), open);
    expect(openai).toMatchObject({ body: { error: { code: "unsupported_media_type", type: "invalid_request_error", param: null } } });
    const anthropic = guardRequest(request("POST", "/api/v1/messages", { "content-type": "text/plain", "content-length": "2" }), open);
    expect(anthropic).toMatchObject({ body: { type: "error", error: { type: "invalid_request_error" } } });
  });
});

describe("request guard: access token", () => {
  it("[SEC-3] without CONTEXT_LAB_TOKEN lets requests through unchanged", () => {
    const decision = guardRequest(request("GET", "/api/conversations"), open);
    expect(decision.action).toBe("pass");
  });

  it("[SEC-3] sends a browser without the cookie to the login page, keeping where it was going", () => {
    expect(guardRequest(request("GET", "/c/abc?branch=b1"), locked)).toEqual({ action: "login", location: "/login?next=%2Fc%2Fabc%3Fbranch%3Db1" });
  });

  it("[SEC-3] answers API calls without the token 401 JSON, the live stream and the proxy included", () => {
    for (const path of ["/api/conversations", "/api/live/conversations/x", "/api/health", "/api/v1/chat/completions", "/api/nothing-here"]) {
      expect(guardRequest(request("GET", path), locked)).toMatchObject({ action: "refuse", status: 401, code: "unauthorized" });
    }
    expect(guardRequest(request("GET", "/api/conversations", { authorization: "Bearer wrong-token-wrong-token" }), locked)).toMatchObject({ status: 401 });
  });

  it("[SEC-3] keeps the login page and its route reachable", () => {
    expect(guardRequest(request("GET", "/login"), locked).action).toBe("pass");
    expect(guardRequest(request("POST", "/api/login", json), locked).action).toBe("pass");
  });

  it("[SEC-3] accepts the session cookie, a bearer token, the token header and x-api-key", () => {
    const cookie = { cookie: `theme=dark; ${SESSION_COOKIE}=${sessionValueOf(TOKEN)}` };
    const accepted: Record<string, string>[] = [cookie, { authorization: `Bearer ${TOKEN}` }, { "x-context-lab-token": TOKEN }, { "x-api-key": TOKEN }];
    for (const headers of accepted) {
      expect(guardRequest(request("GET", "/api/conversations", headers), locked).action).toBe("pass");
    }
  });

  it("[SEC-3] refuses a cookie holding the token itself: the cookie is an HMAC of it", () => {
    expect(guardRequest(request("GET", "/api/conversations", { cookie: `${SESSION_COOKIE}=${TOKEN}` }), locked)).toMatchObject({ status: 401 });
    expect(sessionValueOf(TOKEN)).not.toContain(TOKEN);
  });

  it("[SEC-4] takes the token out of what the routes see, keeping an agent's label", () => {
    const labelled = guardRequest(request("POST", "/api/v1/chat/completions", { authorization: `Bearer ctxlab-airline~${TOKEN}`, ...json }), locked);
    expect(labelled.action).toBe("pass");
    if (labelled.action === "pass") expect(labelled.requestHeaders.get("authorization")).toBe("Bearer ctxlab-airline");
    const bare = guardRequest(
      request("POST", "/api/v1/chat/completions", { authorization: `Bearer ${TOKEN}`, "x-context-lab-conversation": "airline", ...json }),
      locked,
    );
    if (bare.action !== "pass") throw new Error("expected pass");
    expect(bare.requestHeaders.has("authorization")).toBe(false);
    expect(bare.requestHeaders.get("x-context-lab-conversation")).toBe("airline");
    const anthropic = guardRequest(request("POST", "/api/v1/messages", { "x-api-key": `ctxlab-support~${TOKEN}`, ...json }), locked);
    if (anthropic.action !== "pass") throw new Error("expected pass");
    expect(anthropic.requestHeaders.get("x-api-key")).toBe("ctxlab-support");
    const cookie = guardRequest(request("GET", "/", { cookie: `a=1; ${SESSION_COOKIE}=${sessionValueOf(TOKEN)}`, "x-context-lab-token": TOKEN }), locked);
    if (cookie.action !== "pass") throw new Error("expected pass");
    expect([...cookie.requestHeaders.values()].join(" ")).not.toContain(TOKEN);
    expect(cookie.requestHeaders.get("cookie")).toBe("a=1");
  });

  it("[SEC-4] refuses a label key without the token", () => {
    expect(guardRequest(request("POST", "/api/v1/chat/completions", { authorization: "Bearer ctxlab-airline", ...json }), locked)).toMatchObject({
      status: 401,
    });
  });
});

describe("safeReturnPath", () => {
  it("[SEC-3] only returns to a path on this site", () => {
    expect(safeReturnPath("/c/abc?x=1")).toBe("/c/abc?x=1");
    expect(safeReturnPath("//evil.example/")).toBe("/");
    expect(safeReturnPath("https://evil.example/")).toBe("/");
    expect(safeReturnPath(null)).toBe("/");
  });
});

describe("request guard: paths (BD-1)", () => {
  it("[BD-1] refuses a broken percent-encoding with a JSON 400, pages, API and the recording proxy alike", () => {
    for (const path of ["/c/%", "/api/conversations/%", "/api/%zz", "/c/%E0%A4%A", "/%"]) {
      const decision = guardRequest(request("GET", path), open);
      expect(decision).toMatchObject({ action: "refuse", status: 400, code: "invalid_path", body: { error: { code: "invalid_path" } } });
    }
    const proxied = guardRequest(request("POST", "/api/v1/%ff", json), open);
    expect(proxied).toMatchObject({ status: 400, body: { error: { code: "invalid_path", type: "invalid_request_error" } } });
    const anthropic = guardRequest(request("POST", "/api/v1/messages/%ff", json), open);
    expect(anthropic).toMatchObject({ status: 400, body: { type: "error", error: { type: "invalid_request_error" } } });
  });

  it("[BD-1] refuses an escaped control character and lets well-formed escapes through", () => {
    expect(guardRequest(request("GET", "/api/conversations/%00"), open)).toMatchObject({ status: 400, code: "invalid_path" });
    expect(guardRequest(request("GET", "/api/conversations/a%0Ab"), open)).toMatchObject({ status: 400, code: "invalid_path" });
    for (const path of ["/api/models/openai%2Fgpt-4o", "/api/models/%25", "/c/%E6%96%87"]) expect(guardRequest(request("GET", path), open).action).toBe("pass");
  });

  it("[BD-1] refuses a broken path before asking for the token", () => {
    expect(guardRequest(request("GET", "/c/%"), locked)).toMatchObject({ status: 400, code: "invalid_path" });
  });
});

describe("request guard: bracketed hosts (BD-8)", () => {
  it("[BD-8] reads a bracketed host whole: nothing but a port may follow the bracket", () => {
    for (const host of ["[::1]evil.example", "[::1]evil.example:3000", "[::1].evil.example", "[::1]@evil.example", "[::1", "[evil.example]"]) {
      expect(guardRequest(request("GET", "/api/conversations", { host }), open), host).toMatchObject({ status: 403, code: "forbidden_host" });
    }
    for (const host of ["[::1]", "[::1]:3000", "[::1]:"]) expect(guardRequest(request("GET", "/", { host }), open).action, host).toBe("pass");
  });
});

describe("safeReturnPath after sign-in (BD-7)", () => {
  it("[BD-7] never leaves the app: tabs and line breaks a browser drops, backslashes it reads as slashes", () => {
    const decoded = (query: string) => new URLSearchParams(query).get("next");
    for (const query of [
      "next=/%09/evil.example/",
      "next=/%0a/evil.example/",
      "next=/%0d/evil.example/",
      "next=//evil",
      "next=/\\evil",
      "next=/%5Cevil",
      "next=%2F%2Fevil",
    ]) {
      expect(safeReturnPath(decoded(query)), query).toBe("/");
    }
    expect(safeReturnPath("/\t/evil.example/")).toBe("/");
    expect(safeReturnPath("/c/x/../y?branch=b#m3")).toBe("/c/y?branch=b#m3");
    expect(safeReturnPath("/login?next=%2Fc%2Fa")).toBe("/login?next=%2Fc%2Fa");
  });
});
