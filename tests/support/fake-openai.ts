import http from "node:http";
import {
  anthropicErrorBody,
  anthropicMessageBody,
  anthropicPairingError,
  anthropicStreamPayloads,
  countTokensBody,
  lastAnthropicUserText,
} from "./fake-upstream/anthropic";
import { chatPairingError } from "./fake-upstream/chat";
import {
  conversationItems,
  lastResponsesUserText,
  outputItems,
  responseBody,
  responseId,
  responsesPairingError,
  responsesStreamPayloads,
  type ResponseStore,
} from "./fake-upstream/responses";
import { FakePromptCache, type FakeCacheUsage, type FakePromptCacheOptions } from "./fake-upstream/prompt-cache";
import { pieces } from "./fake-upstream/text";
import { listenOnLoopback } from "./loopback";

/**
 * A real HTTP server on 127.0.0.1 that speaks enough of OpenAI's and
 * Anthropic's APIs to stand for an upstream: chat completions (whole or
 * streamed, with tool-call deltas split across chunks and the usage chunk),
 * Responses (`/v1/responses`, events, `previous_response_id` chains) and
 * Anthropic Messages (`/v1/messages`, events, `count_tokens`), the model
 * list, scripted errors, slow answers, answers that never come, and streams
 * dropped half way. Each model request, whatever its protocol, takes the next
 * queued script, else the responder's; one reply script (text, reasoning,
 * tool calls) is written in each protocol's own shape. Like the real APIs it
 * answers 400 to a history whose tool calls and results do not pair.
 */

export interface FakeToolCall {
  id?: string;
  name: string;
  /** JSON text, sent in pieces when streaming. */
  arguments: string;
}

/** A successful answer. */
export interface FakeReply {
  kind?: "reply";
  content?: string | null;
  toolCalls?: FakeToolCall[];
  finishReason?: string;
  model?: string;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  /** Wait this long before answering (the headers too). */
  delayMs?: number;
  /** Streaming: wait this long between chunks. */
  chunkDelayMs?: number;
  /** Streaming: characters of content (and of tool arguments) per chunk; default 4. */
  chunkSize?: number;
  /** Reasoning before the answer: a Responses reasoning summary, an Anthropic thinking block (chat has no field for it). */
  reasoning?: string;
  /** Set by the fake when its prompt cache is on: what the request read from and wrote to it. */
  cache?: FakeCacheUsage;
}

export type FakeScript =
  | FakeReply
  /** An HTTP error with OpenAI's error body (or `body` as given). */
  | { kind: "error"; status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  /** Streams `reply` but destroys the socket after `afterChunks` chunks. */
  | { kind: "drop"; afterChunks: number; reply?: FakeReply }
  /** Sends `reply`'s headers and first chunks, then stalls for good. */
  | { kind: "stall"; afterChunks: number; reply?: FakeReply }
  /** Never answers at all. */
  | { kind: "hang" }
  /** Streams `reply`'s first `afterChunks` events, then ends the stream cleanly without its final event. */
  | { kind: "truncate"; afterChunks: number; reply?: FakeReply }
  /** Streams `reply`'s first `afterChunks` events, then the protocol's error event, and ends. */
  | { kind: "stream-error"; afterChunks: number; reply?: FakeReply }
  /** A whole answer: status 200, its headers with the full `content-length`, half the body, then the socket is destroyed. */
  | { kind: "cut"; reply?: FakeReply };

/** A request the fake received. */
export interface FakeRequest {
  method: string;
  path: string;
  /** The query string, `?beta=true`, when there was one. */
  search?: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
  /** The body's bytes as UTF-8 text, as they came. */
  text: string;
}

export type FakeResponder = (request: FakeRequest) => FakeScript;

/** Which API a request to the fake speaks, by its path. */
export type FakeProtocol = "chat" | "responses" | "anthropic" | "count-tokens" | "embeddings" | "models";

const PROTOCOL_PATHS: Record<string, FakeProtocol> = {
  "POST /v1/chat/completions": "chat",
  "POST /v1/responses": "responses",
  "POST /v1/messages": "anthropic",
  "POST /v1/messages/count_tokens": "count-tokens",
  "POST /v1/embeddings": "embeddings",
  "GET /v1/models": "models",
};

export function protocolOf(request: Pick<FakeRequest, "method" | "path">): FakeProtocol | null {
  return PROTOCOL_PATHS[`${request.method} ${request.path}`] ?? null;
}

/** One server-sent event: `event:` (Responses, Anthropic) and `data:`. */
export interface SsePayload {
  event?: string;
  data: string;
}

export interface FakeOpenAI {
  /** The base URL an OpenAI client takes: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** The base URL an Anthropic client takes: `http://127.0.0.1:<port>`. */
  anthropicBaseUrl: string;
  /** Every request it answered, in arrival order. */
  readonly requests: FakeRequest[];
  /** Model requests whose caller hung up before the answer was complete (a cancelled upstream call). */
  readonly abandoned: number;
  /** Queues scripts for the next model requests, in order. */
  enqueue(...scripts: FakeScript[]): void;
  /** Answers model requests once the queue is empty (default: `echoReply`). */
  respondWith(responder: FakeResponder): void;
  /** Numbers the next answer 1 again, so a call repeated through the proxy gets the ids and timestamps a direct one got. */
  rewind(): void;
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  /** Answers 401 unless `Authorization: Bearer <apiKey>` (OpenAI paths). */
  apiKey?: string;
  /** Answers 401 unless `x-api-key: <anthropicApiKey>` (Anthropic paths). */
  anthropicApiKey?: string;
  responder?: FakeResponder;
  /** Reports prompt-cache reads and writes on chat completions and Messages as the providers do, on the test's clock. */
  promptCache?: FakePromptCacheOptions;
}

const MODEL = "fake-gpt";

function lastUserText(request: FakeRequest): string {
  const protocol = protocolOf(request);
  if (protocol === "responses") return lastResponsesUserText(request);
  if (protocol === "anthropic") return lastAnthropicUserText(request);
  const messages = Array.isArray(request.body?.messages) ? (request.body.messages as { role?: string; content?: unknown }[]) : [];
  const last = [...messages].reverse().find((message) => message.role === "user");
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? null);
}

/** The default answer: "echo: <last user message>". */
export const echoReply: FakeResponder = (request) => ({ content: `echo: ${lastUserText(request)}` });

function usageOf(reply: FakeReply, request: FakeRequest) {
  if (reply.usage) return reply.usage;
  if (reply.cache) {
    const completion = (reply.content ?? "").length;
    return {
      prompt_tokens: reply.cache.prompt,
      completion_tokens: completion,
      total_tokens: reply.cache.prompt + completion,
      prompt_tokens_details: { cached_tokens: reply.cache.read },
    };
  }
  const prompt = JSON.stringify(request.body?.messages ?? []).length;
  const completion = (reply.content ?? "").length + (reply.toolCalls ?? []).reduce((total, call) => total + call.arguments.length, 0);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function toolCallsOf(reply: FakeReply, serial: number) {
  return (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${serial}_${index}`,
    type: "function" as const,
    function: { name: call.name, arguments: call.arguments },
  }));
}

function completionBody(reply: FakeReply, request: FakeRequest, serial: number) {
  const toolCalls = toolCallsOf(reply, serial);
  return {
    id: `chatcmpl-fake-${serial}`,
    object: "chat.completion",
    created: 1_700_000_000 + serial,
    model: reply.model ?? MODEL,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: reply.content ?? null, refusal: null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        logprobs: null,
        finish_reason: reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
      },
    ],
    usage: usageOf(reply, request),
  };
}

/** The `data:` payloads of a streamed answer, `[DONE]` last: role, content pieces, each tool call's head then argument pieces, finish, usage. */
export function streamPayloads(reply: FakeReply, request: FakeRequest, serial: number): string[] {
  const size = reply.chunkSize ?? 4;
  const includeUsage = (request.body?.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  const base = { id: `chatcmpl-fake-${serial}`, object: "chat.completion.chunk", created: 1_700_000_000 + serial, model: reply.model ?? MODEL };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...(includeUsage ? { usage: null } : {}) });
  const payloads = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of pieces(reply.content ?? "", size)) payloads.push(chunk({ content: piece }));
  toolCallsOf(reply, serial).forEach((call, index) => {
    payloads.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }));
    for (const piece of pieces(call.function.arguments, size)) payloads.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  payloads.push(chunk({}, reply.finishReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? "tool_calls" : "stop")));
  if (includeUsage) payloads.push(JSON.stringify({ ...base, choices: [], usage: usageOf(reply, request) }));
  payloads.push("[DONE]");
  return payloads;
}

const ERROR_BODIES: Record<number, { message: string; type: string; code: string | null }> = {
  401: {
    message: "Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.",
    type: "invalid_request_error",
    code: "invalid_api_key",
  },
  429: { message: "Rate limit reached for fake-gpt on requests per min (RPM): Limit 3, Used 3, Requested 1.", type: "requests", code: "rate_limit_exceeded" },
  500: { message: "The server had an error while processing your request. Sorry about that!", type: "server_error", code: null },
};

function errorBody(status: number) {
  const known = ERROR_BODIES[status] ?? { message: `fake error ${status}`, type: "server_error", code: null };
  return { error: { ...known, param: null } };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function readText(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseBody(text: string): Record<string, unknown> | null {
  if (text === "") return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { unparsed: text };
  }
}

async function writeStream(response: http.ServerResponse, payloads: SsePayload[], reply: FakeReply, stopAfter: number | null, isOpen: () => boolean) {
  response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-request-id": "req_fake_stream" });
  response.flushHeaders();
  for (let index = 0; index < payloads.length; index += 1) {
    if (stopAfter !== null && index >= stopAfter) return "stopped";
    if (!isOpen()) return "closed";
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
    // Waiting for the write to reach the socket keeps a drop that follows from discarding it (http corks writes until the next tick).
    const { event, data } = payloads[index];
    await new Promise<void>((resolve) => response.write(`${event ? `event: ${event}\n` : ""}data: ${data}\n\n`, () => resolve()));
  }
  response.end();
  return "done";
}

/** The error event each protocol sends inside a stream (an overloaded upstream). */
function streamErrorEvent(protocol: FakeProtocol): string {
  const message = "Overloaded: the fake upstream has no capacity right now.";
  if (protocol === "anthropic") return `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message } })}\n\n`;
  if (protocol === "responses")
    return `event: error\ndata: ${JSON.stringify({ type: "error", code: "server_error", message, param: null, sequence_number: 99 })}\n\n`;
  return `data: ${JSON.stringify({ error: { message, type: "server_error", param: null, code: null } })}\n\n`;
}

function sendJson(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/** Checks the credentials each API expects; false when it answered 401. */
function authorized(options: FakeOpenAIOptions, request: FakeRequest, response: http.ServerResponse): boolean {
  const anthropic = request.path.startsWith("/v1/messages");
  if (anthropic && options.anthropicApiKey !== undefined && request.headers["x-api-key"] !== options.anthropicApiKey) {
    sendJson(response, 401, anthropicErrorBody(401, "invalid x-api-key"));
    return false;
  }
  if (!anthropic && options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
    sendJson(response, 401, errorBody(401));
    return false;
  }
  return true;
}

/** The 400 the request's API answers for its history, or null when it is well formed. */
function refusalOf(protocol: FakeProtocol, request: FakeRequest, store: ResponseStore): unknown {
  if (protocol === "chat") return chatPairingError(request.body?.messages);
  if (protocol === "anthropic") return anthropicPairingError(request);
  const items = conversationItems(request, store);
  if (!Array.isArray(items)) return items.error.body;
  return responsesPairingError(items);
}

/** Starts the fake on 127.0.0.1 at a free port. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const queue: FakeScript[] = [];
  const requests: FakeRequest[] = [];
  const store: ResponseStore = new Map();
  let responder = options.responder ?? echoReply;
  let serial = 0;
  let abandoned = 0;
  const promptCache = options.promptCache === undefined ? null : new FakePromptCache(options.promptCache);

  const server = http.createServer(async (incoming, response) => {
    const path = (incoming.url ?? "/").replace(/\?.*$/, "");
    const search = (incoming.url ?? "").slice(path.length);
    const text = await readText(incoming);
    const request: FakeRequest = { method: incoming.method ?? "GET", path, search, headers: incoming.headers, body: parseBody(text), text };
    let open = true;
    response.on("close", () => {
      open = false;
      if (protocolOf(request) !== null && !response.writableFinished) abandoned += 1;
    });
    if (!authorized(options, request, response)) return;
    const protocol = protocolOf(request);
    if (protocol === null) {
      sendJson(response, 404, { error: { message: `no route ${path}`, type: "invalid_request_error", param: null, code: null } });
      return;
    }
    requests.push(request);
    if (protocol === "models") {
      sendJson(
        response,
        200,
        { object: "list", data: [{ id: MODEL, object: "model", created: 1_700_000_000, owned_by: "context-lab-tests" }] },
        { "x-request-id": "req_fake_models" },
      );
      return;
    }
    if (protocol === "count-tokens") {
      sendJson(response, 200, countTokensBody(request), { "request-id": "req_fake_count" });
      return;
    }
    if (protocol === "embeddings") {
      const input = request.body?.input;
      const texts = Array.isArray(input) ? input : [input];
      const data = texts.map((text, index) => ({ object: "embedding", index, embedding: [String(text).length, index, 0.5] }));
      sendJson(response, 200, {
        object: "list",
        data,
        model: request.body?.model ?? MODEL,
        usage: { prompt_tokens: texts.length, total_tokens: texts.length },
      });
      return;
    }
    const refusal = refusalOf(protocol, request, store);
    if (refusal !== null) {
      sendJson(response, 400, refusal, { "x-request-id": "req_fake_refused" });
      return;
    }
    serial += 1;
    const script = queue.shift() ?? responder(request);
    await answer(script, protocol, request, response, serial, () => open);
  });

  async function answer(
    script: FakeScript,
    protocol: FakeProtocol,
    request: FakeRequest,
    response: http.ServerResponse,
    number: number,
    isOpen: () => boolean,
  ) {
    if (script.kind === "hang") return;
    if ("delayMs" in script && script.delayMs) await sleep(script.delayMs);
    if (!isOpen()) return;
    if (script.kind === "error") {
      const body = script.body ?? (protocol === "anthropic" ? anthropicErrorBody(script.status) : errorBody(script.status));
      sendJson(response, script.status, body, { "x-request-id": `req_fake_${number}`, ...script.headers });
      return;
    }
    const scripted: FakeReply = "afterChunks" in script || script.kind === "cut" ? (script.reply ?? { content: "a reply that will not arrive whole" }) : script;
    const reply: FakeReply =
      promptCache !== null && (protocol === "chat" || protocol === "anthropic")
        ? { ...scripted, cache: promptCache.account(protocol, request.body) }
        : scripted;
    if (protocol === "responses") remember(reply, request, number);
    if (request.body?.stream === true) {
      const payloads =
        protocol === "responses"
          ? responsesStreamPayloads(reply, request, number)
          : protocol === "anthropic"
            ? anthropicStreamPayloads(reply, request, number)
            : streamPayloads(reply, request, number).map((data) => ({ data }));
      const stopAfter = "afterChunks" in script ? script.afterChunks : null;
      const result = await writeStream(response, payloads, reply, stopAfter, isOpen);
      if (result !== "stopped") return;
      if (script.kind === "drop") response.socket?.destroy();
      else if (script.kind === "truncate") response.end();
      else if (script.kind === "stream-error") response.end(streamErrorEvent(protocol));
      return;
    }
    if (script.kind === "drop") {
      response.socket?.destroy();
      return;
    }
    if (script.kind === "stall") return;
    const body =
      protocol === "responses"
        ? responseBody(reply, request, number)
        : protocol === "anthropic"
          ? anthropicMessageBody(reply, request, number)
          : completionBody(reply, request, number);
    if (script.kind === "cut") {
      const whole = Buffer.from(JSON.stringify(body));
      response.writeHead(200, { "content-type": "application/json", "content-length": String(whole.length), "x-request-id": `req_fake_${number}` });
      response.write(whole.subarray(0, whole.length >> 1), () => response.socket?.destroy());
      return;
    }
    sendJson(response, 200, body, { "x-request-id": `req_fake_${number}` });
  }

  /** Keeps a response for `previous_response_id`, unless the request said `store: false`. */
  function remember(reply: FakeReply, request: FakeRequest, number: number) {
    if (request.body?.store === false) return;
    const items = conversationItems(request, store);
    if (Array.isArray(items)) store.set(responseId(number), [...items, ...outputItems(reply, number)]);
  }

  const { port, close } = await listenOnLoopback(server);

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    anthropicBaseUrl: `http://127.0.0.1:${port}`,
    requests,
    get abandoned() {
      return abandoned;
    },
    enqueue: (...scripts) => queue.push(...scripts),
    respondWith: (next) => {
      responder = next;
    },
    rewind: () => {
      serial = 0;
    },
    close,
  };
}
