import type { ToolDefinition } from "@/lib/context";
import { readAnthropicRequest, readAnthropicResponse, writeAnthropicRequest } from "@/lib/formats";
import { isRecord } from "@/lib/formats/context";
import type { CompletionOutcome } from "@/lib/upstream/assemble";
import { ProxyRequestError } from "../errors";
import { upstreamRequestHeaders } from "@/lib/upstream/forward";
import type { AgentIdentity } from "../identify";
import type { SseMessage } from "@/lib/upstream/sse";
import type { StreamAssembler } from "../stream";
import { resolveAnthropicUpstream, type UpstreamConfig } from "@/lib/upstream/settings";
import { readRequestWith } from "./errors";
import type { Protocol, ReadRequest } from "./types";

/** P-A1: `system`, `messages` and `tools` read by the Anthropic converter (tool results become tool messages, thinking reasoning parts). */
function readRequest(body: unknown): ReadRequest {
  if (!isRecord(body)) throw new ProxyRequestError("the request body must be a JSON object with model, max_tokens and messages");
  if (!Array.isArray(body.messages)) throw new ProxyRequestError("messages must be an array of Anthropic messages", "messages");
  return readRequestWith(body, readAnthropicRequest);
}

/** P-A2: a Messages response as the assistant reply, with its stop reason and usage. */
export function outcomeOfMessage(body: unknown): CompletionOutcome {
  const none: CompletionOutcome = { reply: null, model: null, finishReason: null, usage: null };
  if (!isRecord(body)) return none;
  const outcome: CompletionOutcome = {
    ...none,
    model: typeof body.model === "string" ? body.model : null,
    usage: isRecord(body.usage) ? body.usage : null,
    finishReason: typeof body.stop_reason === "string" ? body.stop_reason : null,
  };
  try {
    outcome.reply = readAnthropicResponse(body).messages[0] ?? null;
  } catch {
    // A malformed message is passed to the agent as it is and kept on the exchange, not in the history.
  }
  return outcome;
}

/**
 * P-A2: reads a Messages event stream into the message it describes:
 * `message_start`'s message, each block from its start and deltas (text,
 * thinking and its signature, tool input JSON), `message_delta`'s stop
 * reason and usage. An `error` event is the stream's error.
 */
export class AnthropicStreamAssembler implements StreamAssembler {
  chunks = 0;
  streamError: unknown = null;
  private message: Record<string, unknown> = { type: "message", role: "assistant", content: [] };
  private readonly blocks = new Map<number, Record<string, unknown>>();
  private readonly inputs = new Map<number, string[]>();
  private stopped = false;

  add(message: SseMessage): void {
    let event: unknown;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    if (!isRecord(event)) return;
    this.chunks += 1;
    const index = typeof event.index === "number" ? event.index : -1;
    switch (event.type) {
      case "message_start":
        if (isRecord(event.message)) this.message = event.message;
        break;
      case "content_block_start":
        if (isRecord(event.content_block)) this.blocks.set(index, { ...event.content_block });
        break;
      case "content_block_delta":
        if (isRecord(event.delta)) this.addDelta(index, event.delta);
        break;
      case "message_delta":
        if (isRecord(event.delta)) this.message = { ...this.message, ...event.delta };
        if (isRecord(event.usage)) this.message = { ...this.message, usage: { ...(isRecord(this.message.usage) ? this.message.usage : {}), ...event.usage } };
        break;
      case "message_stop":
        this.stopped = true;
        break;
      case "error":
        this.streamError = event.error ?? event;
        break;
    }
  }

  get complete(): boolean {
    return this.stopped;
  }

  /** A `tool_use` block of a tool other than `toolName` (or a server tool's): the round is the agent's (PX-R3). */
  answersBeyond(toolName: string): boolean {
    return [...this.blocks.values()].some(
      (block) => block.type !== "text" && block.type !== "thinking" && block.type !== "redacted_thinking" && block.name !== toolName,
    );
  }

  private addDelta(index: number, delta: Record<string, unknown>): void {
    const block = this.blocks.get(index);
    if (!block) return;
    const append = (field: string, value: unknown) => {
      if (typeof value === "string") block[field] = `${typeof block[field] === "string" ? block[field] : ""}${value}`;
    };
    if (delta.type === "text_delta") append("text", delta.text);
    else if (delta.type === "thinking_delta") append("thinking", delta.thinking);
    else if (delta.type === "signature_delta") block.signature = delta.signature;
    else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string")
      this.inputs.set(index, [...(this.inputs.get(index) ?? []), delta.partial_json]);
    else if (delta.type === "citations_delta") block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
  }

  response(): Record<string, unknown> {
    const content = [...this.blocks.entries()]
      .sort(([left], [right]) => left - right)
      .map(([index, block]) => {
        const input = this.inputs.get(index);
        if (input === undefined) return block;
        try {
          return { ...block, input: JSON.parse(input.join("") || "{}") as unknown };
        } catch {
          // Cut mid-way: the JSON so far, as text, is what arrived.
          return { ...block, input: { partial_json: input.join("") } };
        }
      });
    return { ...this.message, content };
  }

  outcome(): CompletionOutcome {
    return outcomeOfMessage(this.response());
  }
}

/**
 * P-A3: the agent's headers (`anthropic-version`, `anthropic-beta` and the
 * rest) with the configured key as `x-api-key`, else the agent's own real
 * key; a `ctxlab-` label never leaves.
 */
export function anthropicHeaders(incoming: Headers, upstream: UpstreamConfig, identity: AgentIdentity): Headers {
  const headers = upstreamRequestHeaders(incoming, { ...upstream, apiKey: null }, { ...identity, agentApiKey: null });
  headers.delete("x-api-key");
  const key = upstream.apiKey ?? identity.agentApiKey;
  if (key) headers.set("x-api-key", key);
  return headers;
}

export const anthropicMessages: Protocol = {
  name: "anthropic",
  errorShape: "anthropic",
  readRequest,
  upstream: resolveAnthropicUpstream,
  notConfigured: "set CONTEXT_LAB_ANTHROPIC_BASE_URL (and CONTEXT_LAB_ANTHROPIC_API_KEY) or save anthropic.baseUrl with PUT /api/settings/upstream",
  url: (upstream, search) => `${upstream.baseUrl}/v1/messages${search}`,
  headers: anthropicHeaders,
  outcome: outcomeOfMessage,
  assembler: () => new AnthropicStreamAssembler(),
  writeHistory: (messages, tools: ToolDefinition[]) => writeAnthropicRequest({ messages, tools }).value,
  supersededFields: ["system", "messages", "tools"],
  outputLimit: { fields: ["max_tokens"], fieldFor: () => "max_tokens" },
  streamError: (status, answer) => {
    const inner = isRecord(answer) && isRecord(answer.error) ? answer.error : {};
    const event = { type: "error", error: { type: inner.type ?? "api_error", message: inner.message ?? `the upstream answered ${status}` } };
    return `event: error\ndata: ${JSON.stringify(event)}\n\n`;
  },
};
