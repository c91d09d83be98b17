import type { Message, ToolDefinition } from "@/lib/context";
import type { ConversationRecord, Database } from "@/lib/db";
import type { CompletionOutcome } from "../assemble";
import type { AgentIdentity } from "../identify";
import type { StreamAssembler } from "../stream";
import type { UpstreamConfig } from "../upstream-settings";
import type { ErrorShape } from "./errors";

/** A request body read into what the recorder keeps. */
export interface ReadRequest {
  body: Record<string, unknown>;
  messages: Message[];
  tools: ToolDefinition[] | null;
  stream: boolean;
}

/**
 * One wire protocol the proxy speaks (README.md, "Protocols"): how a request
 * reads into canonical messages, where and with which headers it is
 * forwarded, how the answer (whole or streamed) reads back, and the shape of
 * its errors. Everything else, recording above all, is shared.
 */
export interface Protocol {
  /** As the README names it: `openai-responses`, `anthropic`. */
  name: string;
  errorShape: ErrorShape;
  /** Throws `ProxyRequestError` naming the field at fault. */
  readRequest(body: unknown): ReadRequest;
  upstream(): UpstreamConfig | null;
  /** What to configure, for the 503 when `upstream()` is null. */
  notConfigured: string;
  /** The upstream URL for this request (`search` is the agent's query string, `?beta=true`). */
  url(upstream: UpstreamConfig, search: string): string;
  headers(incoming: Headers, upstream: UpstreamConfig, identity: AgentIdentity): Headers;
  outcome(body: unknown): CompletionOutcome;
  assembler(): StreamAssembler;
  /** The whole conversation a request continues (stored responses, references), or null when it stands alone. */
  continued?(db: Database, conversation: ConversationRecord | null, body: Record<string, unknown>): Promise<Message[] | null>;
  /** Called with each successful answer (whole, or completed stream) before the agent can act on it. */
  answered?(db: Database, request: Record<string, unknown>, response: unknown): void;
  /** The request body with `messages` and `tools` written in the protocol's form (the context pipeline's output). */
  withMessages(body: Record<string, unknown>, messages: Message[], tools: ToolDefinition[]): Record<string, unknown>;
}
