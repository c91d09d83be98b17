import { AsyncLocalStorage } from "node:async_hooks";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { config, proxy } from "@/proxy";

type MatchesHook = (options: { config: typeof config; url: string }) => boolean;
let matches: MatchesHook;

beforeAll(async () => {
  // Next's testing helper reads AsyncLocalStorage from the global scope, as its own server provides it.
  Object.assign(globalThis, { AsyncLocalStorage });
  ({ unstable_doesMiddlewareMatch: matches } = await import("next/experimental/testing/server"));
});

const request = (path: string, method = "GET") => new NextRequest(new URL(path, "http://127.0.0.1:3000"), { method, headers: { host: "127.0.0.1:3000" } });

describe("Next's request hook (proxy.ts)", () => {
  it("[BD-1] answers a broken path with the guard's JSON 400 before Next would answer a plain-text 500", async () => {
    for (const path of ["/c/%", "/api/conversations/%", "/api/v1/%ff", "/api/conversations/%00"]) {
      const response = proxy(request(path));
      expect(response.status, path).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(await response.json()).toMatchObject({ error: { code: "invalid_path" } });
    }
  });

  it("[BD-1] runs for every page and API path Next serves, not for its built assets", () => {
    for (const url of ["/", "/c/%", "/api/conversations/%", "/api/models/%25", "/api/health", "/login"]) expect(matches({ config, url }), url).toBe(true);
    for (const url of ["/_next/static/chunk.js", "/favicon.ico", "/icon.svg"]) expect(matches({ config, url }), url).toBe(false);
  });
});
