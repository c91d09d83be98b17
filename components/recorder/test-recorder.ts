// Fixtures of the recorder's component tests: records, outcomes and a scripted fetch speaking the chat route's wire format.
import type { MessageRecord } from "@/lib/db";
import type { Message } from "@/lib/context/light";
import type { ChatStreamEventName, ChatStreamEvents, ChatTurnDone, ChatTurnWritten } from "@/lib/chat/types";
import type { UpstreamSettingsView } from "./chat-api";

export function record(position: number, message: Message): MessageRecord {
  return { id: `m${position}`, branchId: "b1", position, tokens: 5, createdAt: "2025-05-01T10:00:00.000Z", metadata: { recorder: "chat" }, message };
}

export const CONFIGURED: UpstreamSettingsView = {
  baseUrl: "http://127.0.0.1:4010/v1",
  baseUrlSource: "settings",
  apiKey: { set: true, last4: "4321", source: "settings" },
  timeoutMs: 600_000,
  timeoutSource: "default",
  configured: true,
  anthropic: { baseUrl: null, baseUrlSource: null, apiKey: { set: false, last4: null, source: null }, configured: false },
};

export const UNCONFIGURED: UpstreamSettingsView = {
  baseUrl: null,
  baseUrlSource: null,
  apiKey: { set: false, last4: null, source: null },
  timeoutMs: 600_000,
  timeoutSource: "default",
  configured: false,
  anthropic: { baseUrl: null, baseUrlSource: null, apiKey: { set: false, last4: null, source: null }, configured: false },
};

export const WRITTEN: ChatTurnWritten = {
  recorded: [],
  checkpoints: [],
  summarizer: { kind: "upstream", calls: 0, fallbacks: [] },
  prompt: {
    status: "ok",
    messages: 3,
    verdict: {
      ok: true,
      tokens: { system: 10, tools: 0, history: 20, priming: 3, total: 30 },
      contextWindow: 128_000,
      reserve: 4_096,
      budget: 1_000,
      limit: 1_000,
      limitedBy: "budget",
    },
  },
};

export function done(position: number, message: Message, extra: Partial<ChatTurnDone> = {}): ChatTurnDone {
  const stored = record(position, message);
  return {
    ...WRITTEN,
    status: "ok",
    message: stored,
    recorded: [stored],
    pendingToolCalls: message.tool_calls ?? [],
    model: "fake-gpt",
    finishReason: "stop",
    usage: null,
    exchangeId: "x1",
    ...extra,
  };
}

export function sse<Name extends ChatStreamEventName>(name: Name, data: ChatStreamEvents[Name]): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A streamed answer whose pieces arrive one by one, each after `gate` resolves (if given). */
export function streamResponse(pieces: string[], gate?: (index: number) => Promise<void>): Response {
  const encoder = new TextEncoder();
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index >= pieces.length) {
        controller.close();
        return;
      }
      await gate?.(index);
      controller.enqueue(encoder.encode(pieces[index]));
      index += 1;
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream; charset=utf-8" } });
}

export interface ScriptedCall {
  method: string;
  url: string;
  body: unknown;
  signal?: AbortSignal | null;
}

/** A fetch answering the upstream settings from `view` and chat posts from `chats`, in order; records every call. */
export function scriptedFetch(view: UpstreamSettingsView, chats: (() => Response)[]) {
  const calls: ScriptedCall[] = [];
  let current = view;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : null;
    calls.push({ method, url, body, signal: init?.signal });
    if (url.endsWith("/api/settings/upstream")) {
      if (method === "PUT")
        current = {
          ...current,
          baseUrl: body.baseUrl ?? current.baseUrl,
          baseUrlSource: "settings",
          configured: true,
          apiKey: body.apiKey ? { set: true, last4: body.apiKey.slice(-4), source: "settings" } : current.apiKey,
        };
      return Response.json(current);
    }
    const next = chats.shift();
    if (!next) throw new Error(`no scripted answer for ${method} ${url}`);
    return next();
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}
