import type { Message, ToolDefinition } from "@/lib/context";
import type { ConversationRecord, Database, JsonValue } from "@/lib/db";
import type { CompletionOutcome } from "@/lib/upstream/assemble";
import type { AgentIdentity } from "../identify";
import type { StreamAssembler } from "../stream";
import type { UpstreamConfig } from "@/lib/upstream/settings";
import type { ErrorShape } from "./errors";

/** A request body read into what the recorder keeps. */
export interface ReadRequest {
  body: Record<string, unknown>;
  messages: Message[];
  tools: ToolDefinition[] | null;
  stream: boolean;
}

/** Where a protocol's request carries the reply's limit (PX-L1). */
export interface OutputLimit {
  /** Every field an agent may have set it in. */
  fields: readonly string[];
  /** The field the proxy writes it in for `model`. */
  fieldFor(model: string): string;
}

/**
 * One wire protocol the proxy speaks (README.md, "Protocols"): how a request
 * reads into canonical messages, where and with which headers it is
 * forwarded, how the answer (whole or streamed) reads back, how a processed
 * history is written back, and the shape of its errors. The rest (the
 * pipeline, the reload loop, recording) is one implementation for every
 * protocol (`lib/proxy/pipeline.ts`).
 */
export interface Protocol {
  /** As the README names it: `openai-chat`, `openai-responses`, `anthropic`. */
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
  /** The history fields (`messages`, `system`, `input`, `tools`...) written in the protocol's form, to replace the agent's. */
  writeHistory(messages: Message[], tools: ToolDefinition[]): Record<string, unknown>;
  /** Fields of the agent's body that the written history supersedes (dropped when it is written). */
  supersededFields: readonly string[];
  outputLimit: OutputLimit;
  /** The server-sent event that ends the agent's stream with an upstream's refusal (a reload round refused: PX-R2). */
  streamError(status: number, answer: JsonValue): string;
}
