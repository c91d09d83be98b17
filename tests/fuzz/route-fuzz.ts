import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetDatabaseForTests, useDatabaseForTests } from "@/lib/api/database";
import { stopAllFollowing } from "@/lib/local-agents/follow";
import { clearImportsForTests } from "@/lib/local-agents/registry";
import { getProxyRecorder } from "@/lib/proxy";
import { plainRouteOf } from "@/lib/server/routes";
import { proxy } from "@/proxy";
import { createAgentHome, type AgentHome } from "@/tests/support/agent-home";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/tests/support/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/tests/support/fake-openai";
import { bodyText, queryValue } from "./bodies";
import { createFuzzFixtures, type FuzzIds } from "./fixtures";
import { ACCESS_TOKEN, API_ROOT, paramNames, pathOf, ROUTE_SPECS, routeFolders, type RouteSpec } from "./targets";

// BD-11: every route handler under app/api and the app server's own (lib/server/routes.ts), in process, with hundreds of seeded random requests each
// (path parameters, query strings, bodies), and malformed paths through Next's request hook: whatever
// arrives, the answer is a 2xx or a 4xx with a JSON error, never a 5xx. One test file per database
// (routes-sqlite.test.ts, routes-postgres.test.ts), so the two run side by side.

/** Requests per handler and database; `scripts/fuzz-routes.sh` runs more. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
/** Requests of one handler in flight at once: a handler waiting on its database leaves the thread to the next request. */
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const PATH_RUNS = Number(process.env.FUZZ_PATH_RUNS ?? 500);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_128);
const HOST = "127.0.0.1";

type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response> | Response;
type RouteModule = Record<string, Handler | undefined>;

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const BODY_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

interface Target {
  folder: string;
  method: string;
  handler: Handler;
  spec: RouteSpec;
}

const modules = new Map<string, RouteModule>();
for (const folder of routeFolders()) modules.set(folder, (await import(path.join(API_ROOT, folder, "route.ts"))) as RouteModule);
// The recording proxy and the live streams are the app server's own routes (SV-2), not files under app/api.
for (const folder of Object.keys(ROUTE_SPECS).filter((name) => name.startsWith("v1/") || name.startsWith("live/"))) {
  const route = plainRouteOf(pathOf(folder, { path: "unserved", id: "any" }));
  if (route) modules.set(folder, { ...route });
}

/** The methods a route serves: what its OPTIONS names (every one for a catch-all, which answers all alike). */
async function servedMethods(folder: string, module: RouteModule): Promise<string[]> {
  if (folder.endsWith("[...path]")) return ["GET", "POST"];
  const options = module.OPTIONS;
  if (!options) return METHODS.filter((method) => module[method] !== undefined);
  const response = await options(new Request(`http://${HOST}/api/${folder}`, { method: "OPTIONS", headers: { host: HOST } }), { params: Promise.resolve({}) });
  const allow = (response.headers.get("allow") ?? "").split(", ");
  return METHODS.filter((method) => allow.includes(method) && module[method] !== undefined);
}

const targets: Target[] = [];
for (const [folder, module] of modules) {
  for (const method of await servedMethods(folder, module))
    targets.push({ folder, method, handler: module[method] as Handler, spec: ROUTE_SPECS[folder] ?? {} });
}
// Reads first, against the fixtures as they were made; then the writes, which change them.
targets.sort((left, right) => Number(left.method !== "GET") - Number(right.method !== "GET"));

// biome-ignore lint/suspicious/noControlCharactersInRegex: the request hook refuses these in a path (BD-1), so no parameter holds one.
const CONTROL = /[\u0000-\u001F\u007F]/;
const ODD_PARAMS = ["%", "..", ".", "x".repeat(300), " ", "null", "undefined", "文字", "\u202Egnp.exe", "😀", "a/b", "__proto__"];

function paramValue(pool: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    ...(pool.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...pool) }] : []),
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }).filter((text) => !CONTROL.test(text)) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_PARAMS) },
  );
}

interface FuzzRequest {
  params: Record<string, string>;
  query: string;
  body: string | undefined;
}

function requests(target: Target, ids: FuzzIds): fc.Arbitrary<FuzzRequest> {
  const { spec, method, folder } = target;
  const kinds = method === "DELETE" ? { ...spec.params, ...spec.deleteParams } : (spec.params ?? {});
  const params = Object.fromEntries(
    paramNames(folder).map((name) => {
      const kind = kinds[name];
      return [name, paramValue(kind === undefined ? [] : ids[kind])];
    }),
  );
  const fields = Object.entries(spec.query ?? {}).map(([key, value]) =>
    fc.option(
      value(ids).map((text) => `${key}=${text}`),
      { nil: undefined },
    ),
  );
  // The recording proxy passes its query on to the upstream, whose own limits answer a long one.
  const short = folder.startsWith("v1/");
  const extra = fc.option(
    fc.constantFrom("__proto__", "constructor", "x", "limit", "%00").chain((key) => queryValue([], { long: !short }).map((value) => `${key}=${value}`)),
    {
      nil: undefined,
    },
  );
  const query = fc.tuple(...fields, extra).map((parts) => {
    const present = parts.filter((part): part is string => part !== undefined);
    return present.length === 0 ? "" : `?${present.join("&")}`;
  });
  const bodies = BODY_METHODS.has(method) ? (spec.bodies?.[method]?.(ids) ?? bodyText({})) : fc.constant(undefined);
  return fc.record({ params: fc.record(params), query, body: bodies });
}

const proxyHeaders = { authorization: "Bearer ctxlab-fuzz", "x-api-key": "ctxlab-fuzz", "anthropic-version": "2023-06-01" };

/** The answer's status and, unless it is an event stream that never ends, its text. */
async function send(target: Target, request: FuzzRequest): Promise<{ status: number; text: string }> {
  const controller = new AbortController();
  const headers: Record<string, string> = { host: HOST, ...(target.folder.startsWith("v1/") ? proxyHeaders : {}) };
  if (request.body !== undefined) {
    headers["content-type"] = target.spec.contentType ?? "application/json";
    headers["content-length"] = String(Buffer.byteLength(request.body));
  }
  const url = `http://${HOST}${pathOf(target.folder, request.params)}${request.query}`;
  const response = await target.handler(new Request(url, { method: target.method, body: request.body, headers, signal: controller.signal }), {
    params: Promise.resolve(request.params),
  });
  if (target.folder.startsWith("live/") && response.status === 200) {
    controller.abort();
    await response.body?.cancel();
    return { status: response.status, text: "" };
  }
  return { status: response.status, text: await response.text() };
}

/** Why an answer breaks the boundary, or null: a 5xx, or an error without a JSON body naming it. */
function problemOf(status: number, text: string): string | null {
  if (status >= 500) return `answered ${status}: ${text.slice(0, 300)}`;
  if (status < 400) return null;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    return typeof body.error?.message === "string" ? null : `answered ${status} without an error message: ${text.slice(0, 200)}`;
  } catch {
    return `answered ${status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
}

/** Runs `work` on every item, at most `limit` at a time, in order of start. */
async function forEachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** What the fuzz run saw, per target: `FUZZ_REPORT=<file>` appends it as one JSON line per database. */
const tally: Record<string, Record<number, number>> = {};

/** The fuzz suite against one database. */
export function describeRouteFuzz(provider: TestProvider): void {
  describe(`fuzz: every route under app/api (${provider})`, () => {
    let database: TestDatabase;
    let upstream: FakeOpenAI;
    let home: AgentHome;
    let ids: FuzzIds;
    const saved = { ...process.env };
    const settingsFolder = fs.mkdtempSync(path.join(os.tmpdir(), "context-lab-fuzz-"));

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      useDatabaseForTests(database.db);
      upstream = await startFakeOpenAI();
      home = createAgentHome();
      Object.assign(process.env, home.env, {
        HOST,
        CONTEXT_LAB_TOKEN: ACCESS_TOKEN,
        CONTEXT_LAB_UPSTREAM_BASE_URL: upstream.baseUrl,
        CONTEXT_LAB_ANTHROPIC_BASE_URL: upstream.anthropicBaseUrl,
        CONTEXT_LAB_UPSTREAM_API_KEY: "sk-fuzz-upstream",
        CONTEXT_LAB_ANTHROPIC_API_KEY: "sk-ant-fuzz-upstream",
        CONTEXT_LAB_UPSTREAM_SETTINGS_FILE: path.join(settingsFolder, "upstream.json"),
      });
      delete process.env.CONTEXT_LAB_LOCAL_AGENTS;
      ids = { ...(await createFuzzFixtures(database.db, proxyHeaders)), localSession: [home.claudeSession, home.codexSession, home.geminiSession] };
    }, 120_000);

    afterAll(async () => {
      const mine = Object.fromEntries(Object.entries(tally).filter(([key]) => key.startsWith(`${provider} `)));
      if (process.env.FUZZ_REPORT) fs.appendFileSync(process.env.FUZZ_REPORT, `${JSON.stringify({ provider, runs: RUNS, seed: SEED, tally: mine })}\n`);
      await getProxyRecorder().idle();
      stopAllFollowing();
      clearImportsForTests();
      resetDatabaseForTests();
      process.env = { ...saved };
      await upstream?.close();
      home?.cleanup();
      fs.rmSync(settingsFolder, { recursive: true, force: true });
      await database?.cleanup();
    });

    it("[BD-11] every route spec names a route the suite fuzzes (a renamed route would lose its bodies)", () => {
      expect(Object.keys(ROUTE_SPECS).filter((folder) => !modules.has(folder))).toEqual([]);
    });

    it.each(targets.map((target) => ({ ...target, name: `${target.method} /api/${target.folder}` })))(
      "[BD-11] $name answers every random request without a 5xx, errors as JSON",
      async (target) => {
        const statuses: Record<number, number> = (tally[`${provider} ${target.name}`] = {});
        const failures: string[] = [];
        let sent = 0;
        // The seeded requests, drawn first, then sent a few at a time: a finding is printed whole, so it is run again by its text.
        const drawn = fc.sample(requests(target, ids), { numRuns: RUNS, seed: SEED });
        await forEachConcurrently(drawn, target.spec.serial ? 1 : CONCURRENCY, async (request) => {
          const { status, text } = await send(target, request);
          sent += 1;
          statuses[status] = (statuses[status] ?? 0) + 1;
          const problem = problemOf(status, text);
          if (problem)
            failures.push(`${problem}\n  for ${JSON.stringify({ ...request, query: request.query.slice(0, 200), body: request.body?.slice(0, 200) })}`);
        });
        // Settings a PUT saved would point the proxy and the chat at a random upstream for the routes after it.
        if (target.folder === "settings/upstream") fs.rmSync(path.join(settingsFolder, "upstream.json"), { force: true });
        expect(failures.slice(0, 5)).toEqual([]);
        expect(sent).toBe(RUNS);
        const accepted = Object.entries(statuses).reduce((sum, [status, count]) => sum + (Number(status) < 300 ? count : 0), 0);
        expect(accepted, "requests answered 2xx").toBeGreaterThanOrEqual(RUNS * (target.spec.minAccepted ?? 0));
      },
      600_000,
    );

    it("[BD-1] [BD-11] malformed and unusual paths: the hook refuses broken ones with a JSON 400, the rest reach their route without a 5xx", async () => {
      const failures: string[] = [];
      const statuses: Record<number, number> = (tally[`${provider} paths through the request hook`] = {});
      let refused = 0;
      let passed = 0;
      const broken = ["%", "%zz", "%ff", "%E0%A4%A", "%00", "%0a", "%C0%80", "%ED%A0%80", "a%"];
      const unusual = ["%25", "%2F", "%20", "%E2%80%AE", "%F0%9F%98%80", "..%2F..%2Fetc", "%2E%2E"];
      const segment = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...broken) },
        { weight: 1, arbitrary: fc.constantFrom(...unusual) },
        { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }).map(encodeURIComponent) },
      );
      const folders = [...modules.keys()].filter((folder) => paramNames(folder).length > 0);
      const paths = fc.record({ folder: fc.constantFrom(...folders), segment, method: fc.constantFrom("GET", "POST"), page: fc.boolean() });
      await fc.assert(
        fc.asyncProperty(paths, async ({ folder, segment: raw, method, page }) => {
          const names = paramNames(folder);
          const rawPath = page ? `/c/${raw}` : pathOf(folder, Object.fromEntries(names.map((name) => [name, "\u0001"]))).replaceAll("%01", raw);
          const headers = { host: HOST, "content-type": "application/json", "content-length": "2", "x-context-lab-token": ACCESS_TOKEN };
          const hooked = proxy(new NextRequest(`http://${HOST}${rawPath}`, { method, headers, body: method === "POST" ? "{}" : undefined }));
          if (hooked.headers.get("x-middleware-next") !== "1") {
            refused += 1;
            statuses[hooked.status] = (statuses[hooked.status] ?? 0) + 1;
            const problem = problemOf(hooked.status, await hooked.text());
            if (problem || hooked.status !== 400) failures.push(`${method} ${rawPath.slice(0, 200)}: ${problem ?? `hook answered ${hooked.status}`}`);
            return true;
          }
          passed += 1;
          const handler = modules.get(folder)?.[method];
          if (page || !handler) return true;
          // As Next does: each parameter decoded once from its segment.
          const params = Object.fromEntries(names.map((name) => [name, decodeURIComponent(raw)]));
          const response = await handler(new Request(`http://${HOST}${rawPath}`, { method, headers, body: method === "POST" ? "{}" : undefined }), {
            params: Promise.resolve(params),
          });
          const text = folder.startsWith("live/") && response.status === 200 ? "" : await response.text();
          if (folder.startsWith("live/")) await response.body?.cancel().catch(() => undefined);
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          const problem = problemOf(response.status, text);
          if (problem) failures.push(`${method} ${rawPath.slice(0, 200)}: ${problem}`);
          return true;
        }),
        { numRuns: PATH_RUNS, seed: SEED, endOnFailure: true },
      );
      expect(failures.slice(0, 5)).toEqual([]);
      expect(refused).toBeGreaterThan(PATH_RUNS / 4);
      expect(passed).toBeGreaterThan(PATH_RUNS / 10);
    }, 600_000);
  });
}
