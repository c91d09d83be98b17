import { ApiError, apiPath, errorFromBody } from "@/lib/client";
import type { UpstreamSettingsChanges, UpstreamSettingsView } from "@/lib/upstream/settings";
import { SseParser } from "@/lib/upstream/sse";
import { CHAT_STREAM_EVENTS, type ChatStreamEventName, type ChatStreamEvents, type ChatTurnInput, type ChatTurnOutcome } from "@/lib/chat/types";

/** One event of the chat answer stream, typed by its name. */
export type ChatStreamEvent = { [Name in ChatStreamEventName]: { name: Name; data: ChatStreamEvents[Name] } }[ChatStreamEventName];

export interface SendTurnOptions {
  signal?: AbortSignal;
  onEvent?: (event: ChatStreamEvent) => void;
}

/** The recorder's calls: the chat route (an event stream) and the upstream settings. */
export interface ChatApi {
  /** Records the turn and streams the answer; resolves with the terminal event's outcome, rejects with an ApiError. */
  sendTurn(branchId: string, input: ChatTurnInput, options?: SendTurnOptions): Promise<ChatTurnOutcome>;
  getUpstream(): Promise<UpstreamSettingsView>;
  saveUpstream(changes: UpstreamSettingsChanges): Promise<UpstreamSettingsView>;
}

export type { UpstreamSettingsChanges, UpstreamSettingsView };

const TERMINAL = new Set<ChatStreamEventName>(["done", "budget-exceeded", "error"]);

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === "AbortError");
}

async function readJson<T>(fetchImplementation: typeof fetch, method: "GET" | "PUT", path: string, body?: unknown): Promise<T> {
  const what = `${method} ${path}`;
  let response: Response;
  try {
    response = await fetchImplementation(path, {
      method,
      headers: { accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    throw new ApiError(0, "network_error", `${what} could not reach the server (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const text = await response.text();
  if (!response.ok) throw errorFromBody(response.status, response.statusText, text, what);
  return JSON.parse(text) as T;
}

/** Reads the answer stream event by event until its terminal event. */
async function readEvents(response: Response, what: string, options: SendTurnOptions): Promise<ChatTurnOutcome> {
  const reader = response.body!.getReader();
  const parser = new SseParser();
  let outcome: ChatTurnOutcome | null = null;
  const dispatch = (name: string | null, data: string) => {
    if (!name || !CHAT_STREAM_EVENTS.includes(name as ChatStreamEventName)) return;
    const event = { name, data: JSON.parse(data) } as ChatStreamEvent;
    options.onEvent?.(event);
    if (TERMINAL.has(event.name)) outcome = event.data as ChatTurnOutcome;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const message of parser.push(value)) dispatch(message.event, message.data);
    }
    for (const message of parser.end()) dispatch(message.event, message.data);
  } catch (error) {
    if (isAbort(error, options.signal)) throw new ApiError(0, "aborted", "stopped: the turn is recorded, the reply is not", { cause: error });
    throw new ApiError(
      0,
      "network_error",
      `${what}: the answer stream broke off (${error instanceof Error ? error.message : String(error)}); the turn is recorded, Retry asks again`,
      { cause: error },
    );
  }
  if (!outcome) throw new ApiError(0, "network_error", `${what}: the answer stream ended before its outcome; the turn is recorded, Retry asks again`);
  return outcome;
}

/** The browser's chat API on `fetch` (same origin unless `baseUrl`). */
export function createChatApi(options: { fetch?: typeof fetch; baseUrl?: string } = {}): ChatApi {
  const fetchImplementation = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const base = options.baseUrl ?? "";
  return {
    async sendTurn(branchId, input, sendOptions = {}) {
      const path = apiPath`/api/branches/${branchId}/chat`;
      const what = `POST ${path}`;
      let response: Response;
      try {
        response = await fetchImplementation(`${base}${path}`, {
          method: "POST",
          headers: { accept: "text/event-stream", "content-type": "application/json" },
          body: JSON.stringify({ ...input, stream: true }),
          signal: sendOptions.signal,
        });
      } catch (error) {
        if (isAbort(error, sendOptions.signal)) throw new ApiError(0, "aborted", `${what} was stopped`, { cause: error });
        throw new ApiError(
          0,
          "network_error",
          `${what} could not reach the server (${error instanceof Error ? error.message : String(error)}); check that the app is running`,
          { cause: error },
        );
      }
      if (!response.ok || !(response.headers.get("content-type") ?? "").includes("text/event-stream") || !response.body) {
        throw errorFromBody(response.ok ? 502 : response.status, response.statusText, await response.text(), what);
      }
      return readEvents(response, what, sendOptions);
    },
    getUpstream: () => readJson<UpstreamSettingsView>(fetchImplementation, "GET", `${base}/api/settings/upstream`),
    saveUpstream: (changes) => readJson<UpstreamSettingsView>(fetchImplementation, "PUT", `${base}/api/settings/upstream`, changes),
  };
}

export const chatApi: ChatApi = createChatApi();
