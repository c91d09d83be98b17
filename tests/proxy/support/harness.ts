import { afterEach, beforeEach } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { resetDatabaseForTests, useDatabaseForTests } from "@/lib/api/database";
import type { Message } from "@/lib/context";
import {
  findConversationByRecordKey,
  getBranchesByConversationId,
  getExchangesByConversationId,
  getHistoryByBranchId,
  type BranchRecord,
  type ConversationRecord,
  type Database,
  type ExchangeRecord,
  type MessageRecord,
} from "@/lib/db";
import { ALL_CONVERSATIONS, getLiveBus, type LiveEvent } from "@/lib/live";
import { getProxyRecorder } from "@/lib/proxy";
import { answerPlainRoute, plainRouteOf } from "@/lib/server/routes";
import { GET as getUpstreamSettings, PUT as putUpstreamSettings } from "@/app/api/settings/upstream/route";
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from "@/tests/support/fake-openai";
import { startRouteServer, type RouteHandler, type RouteServer } from "./route-server";

/** The upstream key the proxy is configured with in these tests. */
export const UPSTREAM_KEY = "sk-upstream-test-key-9876";
/** The Anthropic upstream key the proxy is configured with in these tests. */
export const ANTHROPIC_UPSTREAM_KEY = "sk-ant-upstream-test-5432";

export interface ProxyHarness {
  fake: FakeOpenAI;
  server: RouteServer;
  /** `http://127.0.0.1:<port>/api/v1`, the base URL agents are given. */
  baseUrl: string;
  /** `http://127.0.0.1:<port>/api`, the base URL Anthropic agents are given (`ANTHROPIC_BASE_URL`). */
  anthropicBaseUrl: string;
  /** An OpenAI client recording under `ctxlab-<label>`; no retries, so each call is one exchange. */
  agent(label: string, options?: Partial<ConstructorParameters<typeof OpenAI>[0]>): OpenAI;
  /** Waits until every queued recording is committed. */
  recorded(): Promise<void>;
  close(): Promise<void>;
}

const ENVIRONMENT = [
  "CONTEXT_LAB_UPSTREAM_BASE_URL",
  "CONTEXT_LAB_UPSTREAM_API_KEY",
  "CONTEXT_LAB_UPSTREAM_TIMEOUT_MS",
  "CONTEXT_LAB_UPSTREAM_SETTINGS_FILE",
  "CONTEXT_LAB_ANTHROPIC_BASE_URL",
  "CONTEXT_LAB_ANTHROPIC_API_KEY",
];

export interface HarnessOptions {
  fake?: FakeOpenAIOptions;
  /** Configure the upstream key (default true). */
  upstreamKey?: boolean;
}

/** A request to the plain route the app server gives its path (a JSON 404 from Next's API catch-all stands for the rest). */
const plainRoute: RouteHandler = (request) => {
  const route = plainRouteOf(new URL(request.url).pathname);
  return route ? answerPlainRoute(route, request) : Response.json({ error: { code: "not_found" } }, { status: 404 });
};

/**
 * The proxy's real route handlers on a real HTTP server, forwarding to a
 * fake OpenAI, recording into `db`.
 */
export async function startProxyHarness(db: Database, options: HarnessOptions = {}): Promise<ProxyHarness> {
  const saved = Object.fromEntries(ENVIRONMENT.map((name) => [name, process.env[name]]));
  const settingsFolder = fs.mkdtempSync(path.join(os.tmpdir(), "context-lab-upstream-"));
  const fake = await startFakeOpenAI(options.fake);
  process.env.CONTEXT_LAB_UPSTREAM_BASE_URL = fake.baseUrl;
  process.env.CONTEXT_LAB_ANTHROPIC_BASE_URL = fake.anthropicBaseUrl;
  if (options.upstreamKey === false) {
    delete process.env.CONTEXT_LAB_UPSTREAM_API_KEY;
    delete process.env.CONTEXT_LAB_ANTHROPIC_API_KEY;
  } else {
    process.env.CONTEXT_LAB_UPSTREAM_API_KEY = UPSTREAM_KEY;
    process.env.CONTEXT_LAB_ANTHROPIC_API_KEY = ANTHROPIC_UPSTREAM_KEY;
  }
  delete process.env.CONTEXT_LAB_UPSTREAM_TIMEOUT_MS;
  process.env.CONTEXT_LAB_UPSTREAM_SETTINGS_FILE = path.join(settingsFolder, "upstream.json");
  useDatabaseForTests(db);
  const server = await startRouteServer([
    // The recording proxy and the live streams as the app server answers them (lib/server/routes.ts).
    { method: "*", path: "/api/v1/*", handler: plainRoute },
    { method: "*", path: "/api/live/*", handler: plainRoute },
    { method: "GET", path: "/api/settings/upstream", handler: getUpstreamSettings as RouteHandler },
    { method: "PUT", path: "/api/settings/upstream", handler: putUpstreamSettings as RouteHandler },
  ]);
  const baseUrl = `${server.url}/api/v1`;
  return {
    fake,
    server,
    baseUrl,
    anthropicBaseUrl: `${server.url}/api`,
    agent: (label, clientOptions = {}) => new OpenAI({ baseURL: baseUrl, apiKey: `ctxlab-${label}`, maxRetries: 0, ...clientOptions }),
    recorded: () => getProxyRecorder().idle(),
    close: async () => {
      await getProxyRecorder().idle();
      await server.close();
      await fake.close();
      resetDatabaseForTests();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      fs.rmSync(settingsFolder, { recursive: true, force: true });
    },
  };
}

/** What the proxy recorded for one agent: its conversation, branches (creation order) with their histories, and exchanges. */
export interface Recorded {
  conversation: ConversationRecord;
  branches: BranchRecord[];
  /** Each branch's full history as plain messages. */
  histories: Map<string, Message[]>;
  /** Each branch's full history as stored. */
  records: Map<string, MessageRecord[]>;
  exchanges: ExchangeRecord[];
}

export async function recordedFor(db: Database, key: string): Promise<Recorded> {
  const conversation = await findConversationByRecordKey(db, key);
  if (!conversation) throw new Error(`nothing was recorded under '${key}'`);
  const branches = await getBranchesByConversationId(db, conversation.id);
  const records = new Map<string, MessageRecord[]>();
  for (const branch of branches) records.set(branch.id, await getHistoryByBranchId(db, branch.id));
  const histories = new Map([...records].map(([id, history]) => [id, history.map((record) => record.message)]));
  const exchanges = await getExchangesByConversationId(db, conversation.id);
  return { conversation, branches, histories, records, exchanges };
}

/** Collects every live event published while the harness runs; `until` waits for one to match. */
export function collectLiveEvents() {
  const events: LiveEvent[] = [];
  const waiters: { predicate: (event: LiveEvent) => boolean; resolve: (event: LiveEvent) => void }[] = [];
  const unsubscribe = getLiveBus().subscribe(ALL_CONVERSATIONS, (event) => {
    events.push(event);
    for (const waiter of [...waiters]) {
      if (!waiter.predicate(event)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(event);
    }
  });
  return {
    events,
    /** The first event, past or future, that matches. */
    until(predicate: (event: LiveEvent) => boolean): Promise<LiveEvent> {
      const seen = events.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    stop: unsubscribe,
  };
}

/**
 * A fresh harness around every test of the enclosing `describe`, recording
 * into that test's database; the returned object reaches the current one.
 */
export function useProxyHarness(test: { readonly db: Database }, options: HarnessOptions = {}): Omit<ProxyHarness, "close"> {
  let current: ProxyHarness | undefined;
  beforeEach(async () => {
    current = await startProxyHarness(test.db, options);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const get = () => {
    if (!current) throw new Error("useProxyHarness: the harness exists only inside a test");
    return current;
  };
  return {
    get fake() {
      return get().fake;
    },
    get server() {
      return get().server;
    },
    get baseUrl() {
      return get().baseUrl;
    },
    get anthropicBaseUrl() {
      return get().anthropicBaseUrl;
    },
    agent: (label, agentOptions) => get().agent(label, agentOptions),
    recorded: () => get().recorded(),
  };
}
