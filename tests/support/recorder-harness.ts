// Test support for lib/chat: a real test database behind the route, the real fake OpenAI upstream, live events collected.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import { ALL_CONVERSATIONS, getLiveBus, type LiveEvent } from "@/lib/live";
import { SseParser } from "@/lib/upstream";
import { POST as chatRoute } from "@/app/api/branches/[branchId]/chat/route";
import { useApiTestDatabase } from "@/tests/api/support";
import type { TestProvider } from "@/tests/support/db";
import { echoReply, startFakeOpenAI, type FakeOpenAI, type FakeRequest, type FakeResponder } from "@/tests/support/fake-openai";

export const UPSTREAM_KEY = "sk-recorder-test-key-4321";
const ENVIRONMENT = ["CONTEXT_LAB_UPSTREAM_BASE_URL", "CONTEXT_LAB_UPSTREAM_API_KEY", "CONTEXT_LAB_UPSTREAM_TIMEOUT_MS", "CONTEXT_LAB_UPSTREAM_SETTINGS_FILE"];

/** True for the upstream summarizer's requests (its system prompt). */
export function isSummaryRequest(request: FakeRequest): boolean {
  const messages = Array.isArray(request.body?.messages) ? (request.body.messages as { role: string; content: string }[]) : [];
  return messages[0]?.role === "system" && /^You (write the memory|summarize a chain)/.test(messages[0].content);
}

/** Echoes chat turns; answers summary requests with a recognisable summary. */
export const recorderResponder: FakeResponder = (request) =>
  isSummaryRequest(request) ? { content: "UPSTREAM SUMMARY: the user asked about baggage." } : echoReply(request);

export interface ChatAnswer {
  status: number;
  headers: Headers;
  /** The stream's events in order (empty for a JSON answer). */
  events: { event: string; data: any }[];
  /** The JSON body (null for a stream). */
  body: any;
}

/** Calls the real route handler and reads its answer whole. */
export async function postChat(branchId: string, body: unknown, signal?: AbortSignal): Promise<ChatAnswer> {
  const request = new Request(`http://localhost/api/branches/${branchId}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  const response = await chatRoute(request, { params: Promise.resolve({ branchId }) });
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream"))
    return { status: response.status, headers: response.headers, events: [], body: JSON.parse(text) };
  const parser = new SseParser();
  const messages = [...parser.push(new TextEncoder().encode(text)), ...parser.end()];
  return {
    status: response.status,
    headers: response.headers,
    events: messages.map((message) => ({ event: message.event ?? "message", data: JSON.parse(message.data) })),
    body: null,
  };
}

/** The terminal event's payload of a streamed answer. */
export function outcomeOf(answer: ChatAnswer): any {
  return answer.events.at(-1)?.data;
}

/**
 * A fresh database (routes pointed at it), the fake upstream configured through
 * the environment with a key, a private settings file, and the live events of
 * every conversation, per test.
 */
export function useRecorderHarness(provider: TestProvider) {
  const test = useApiTestDatabase(provider);
  let fake: FakeOpenAI | undefined;
  let saved: Record<string, string | undefined> = {};
  let folder = "";
  let unsubscribe = () => {};
  const events: LiveEvent[] = [];
  beforeEach(async () => {
    saved = Object.fromEntries(ENVIRONMENT.map((name) => [name, process.env[name]]));
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "context-lab-recorder-"));
    fake = await startFakeOpenAI({ apiKey: UPSTREAM_KEY, responder: recorderResponder });
    process.env.CONTEXT_LAB_UPSTREAM_BASE_URL = fake.baseUrl;
    process.env.CONTEXT_LAB_UPSTREAM_API_KEY = UPSTREAM_KEY;
    delete process.env.CONTEXT_LAB_UPSTREAM_TIMEOUT_MS;
    process.env.CONTEXT_LAB_UPSTREAM_SETTINGS_FILE = path.join(folder, "upstream.json");
    events.length = 0;
    unsubscribe = getLiveBus().subscribe(ALL_CONVERSATIONS, (event) => events.push(event));
  });
  afterEach(async () => {
    unsubscribe();
    await fake?.close();
    fake = undefined;
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    fs.rmSync(folder, { recursive: true, force: true });
  });
  return {
    get db() {
      return test.db;
    },
    get fake(): FakeOpenAI {
      if (!fake) throw new Error("the fake upstream runs only inside a test");
      return fake;
    },
    events,
    /** Chat requests the fake saw, summaries left out. */
    chatRequests: () => (fake?.requests ?? []).filter((request) => request.path === "/v1/chat/completions" && !isSummaryRequest(request)),
    summaryRequests: () => (fake?.requests ?? []).filter(isSummaryRequest),
  };
}
