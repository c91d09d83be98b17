import http from "node:http";
import { listenOnLoopback } from "./loopback";

/**
 * A real HTTP server on 127.0.0.1 that speaks enough of OpenAI's API to stand
 * for an upstream: chat completions (whole or streamed, with tool-call
 * deltas split across chunks and the usage chunk), the model list, scripted
 * errors, slow answers, answers that never come, and streams dropped half way.
 * Each chat request takes the next queued script, else the responder's.
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
  | { kind: "hang" };

/** A request the fake received. */
export interface FakeRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

export type FakeResponder = (request: FakeRequest) => FakeScript;

export interface FakeOpenAI {
  /** The base URL an OpenAI client takes: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** Chat and model requests, in arrival order. */
  readonly requests: FakeRequest[];
  /** Queues scripts for the next chat requests, in order. */
  enqueue(...scripts: FakeScript[]): void;
  /** Answers chat requests once the queue is empty (default: `echoReply`). */
  respondWith(responder: FakeResponder): void;
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  /** Answers 401 unless `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  responder?: FakeResponder;
}

const MODEL = "fake-gpt";

function lastUserText(request: FakeRequest): string {
  const messages = Array.isArray(request.body?.messages) ? (request.body.messages as { role?: string; content?: unknown }[]) : [];
  const last = [...messages].reverse().find((message) => message.role === "user");
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? null);
}

/** The default answer: "echo: <last user message>". */
export const echoReply: FakeResponder = (request) => ({ content: `echo: ${lastUserText(request)}` });

function usageOf(reply: FakeReply, request: FakeRequest) {
  if (reply.usage) return reply.usage;
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

function pieces(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let index = 0; index < text.length; index += size) parts.push(text.slice(index, index + size));
  return parts;
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
  401: { message: "Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.", type: "invalid_request_error", code: "invalid_api_key" },
  429: { message: "Rate limit reached for fake-gpt on requests per min (RPM): Limit 3, Used 3, Requested 1.", type: "requests", code: "rate_limit_exceeded" },
  500: { message: "The server had an error while processing your request. Sorry about that!", type: "server_error", code: null },
};

function errorBody(status: number) {
  const known = ERROR_BODIES[status] ?? { message: `fake error ${status}`, type: "server_error", code: null };
  return { error: { ...known, param: null } };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function readBody(request: http.IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { unparsed: text };
  }
}

async function writeStream(response: http.ServerResponse, payloads: string[], reply: FakeReply, stopAfter: number | null, isOpen: () => boolean) {
  response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-request-id": "req_fake_stream" });
  response.flushHeaders();
  for (let index = 0; index < payloads.length; index += 1) {
    if (stopAfter !== null && index >= stopAfter) return "stopped";
    if (!isOpen()) return "closed";
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
    // Waiting for the write to reach the socket keeps a drop that follows from discarding it (http corks writes until the next tick).
    await new Promise<void>((resolve) => response.write(`data: ${payloads[index]}\n\n`, () => resolve()));
  }
  response.end();
  return "done";
}

/** Starts the fake on 127.0.0.1 at a free port. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const queue: FakeScript[] = [];
  const requests: FakeRequest[] = [];
  let responder = options.responder ?? echoReply;
  let serial = 0;

  const server = http.createServer(async (incoming, response) => {
    const path = (incoming.url ?? "/").replace(/\?.*$/, "");
    const request: FakeRequest = { method: incoming.method ?? "GET", path, headers: incoming.headers, body: await readBody(incoming) };
    let open = true;
    response.on("close", () => (open = false));
    if (options.apiKey !== undefined && incoming.headers.authorization !== `Bearer ${options.apiKey}`) {
      response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify(errorBody(401)));
      return;
    }
    if (request.method === "GET" && path === "/v1/models") {
      requests.push(request);
      response.writeHead(200, { "content-type": "application/json", "x-request-id": "req_fake_models" });
      response.end(JSON.stringify({ object: "list", data: [{ id: MODEL, object: "model", created: 1_700_000_000, owned_by: "context-lab-tests" }] }));
      return;
    }
    if (request.method !== "POST" || path !== "/v1/chat/completions") {
      response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${path}`, type: "invalid_request_error", param: null, code: null } }));
      return;
    }
    requests.push(request);
    serial += 1;
    const script = queue.shift() ?? responder(request);
    await answer(script, request, response, serial, () => open);
  });

  async function answer(script: FakeScript, request: FakeRequest, response: http.ServerResponse, number: number, isOpen: () => boolean) {
    if (script.kind === "hang") return;
    if ("delayMs" in script && script.delayMs) await sleep(script.delayMs);
    if (!isOpen()) return;
    if (script.kind === "error") {
      response.writeHead(script.status, { "content-type": "application/json", "x-request-id": `req_fake_${number}`, ...script.headers });
      response.end(JSON.stringify(script.body ?? errorBody(script.status)));
      return;
    }
    const reply: FakeReply = script.kind === "drop" || script.kind === "stall" ? (script.reply ?? { content: "a reply that will not arrive whole" }) : script;
    if (request.body?.stream === true) {
      const payloads = streamPayloads(reply, request, number);
      const stopAfter = script.kind === "drop" || script.kind === "stall" ? script.afterChunks : null;
      const result = await writeStream(response, payloads, reply, stopAfter, isOpen);
      if (result === "stopped" && script.kind === "drop") response.socket?.destroy();
      return;
    }
    if (script.kind === "drop") {
      response.socket?.destroy();
      return;
    }
    if (script.kind === "stall") return;
    response.writeHead(200, { "content-type": "application/json", "x-request-id": `req_fake_${number}` });
    response.end(JSON.stringify(completionBody(reply, request, number)));
  }

  const { port, close } = await listenOnLoopback(server);

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...scripts) => queue.push(...scripts),
    respondWith: (next) => {
      responder = next;
    },
    close,
  };
}
