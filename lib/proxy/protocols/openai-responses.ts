import type { ToolDefinition } from "@/lib/context";
import { readResponsesOutput, readResponsesRequest, writeResponsesRequest } from "@/lib/formats";
import { isRecord } from "@/lib/formats/context";
import type { CompletionOutcome } from "@/lib/upstream/assemble";
import { ProxyRequestError } from "../errors";
import { upstreamRequestHeaders } from "@/lib/upstream/forward";
import type { SseMessage } from "@/lib/upstream/sse";
import type { StreamAssembler } from "../stream";
import { resolveUpstream } from "@/lib/upstream/settings";
import { continuedMessages, rememberResponse } from "./continuation";
import { readRequestWith } from "./errors";
import { oneReply } from "./merge";
import type { Protocol, ReadRequest } from "./types";

/** P-R1: `instructions` and `input` (with `tools`) read by the Responses converter. */
function readRequest(body: unknown): ReadRequest {
  if (!isRecord(body)) throw new ProxyRequestError("the request body must be a JSON object with model and input");
  return readRequestWith(body, readResponsesRequest);
}

/** P-R2: a response object's output as one assistant reply, with its status and usage. */
export function outcomeOfResponse(body: unknown): CompletionOutcome {
  const none: CompletionOutcome = { reply: null, model: null, finishReason: null, usage: null };
  if (!isRecord(body)) return none;
  const incomplete = isRecord(body.incomplete_details) && typeof body.incomplete_details.reason === "string" ? body.incomplete_details.reason : null;
  const outcome: CompletionOutcome = {
    ...none,
    model: typeof body.model === "string" ? body.model : null,
    usage: isRecord(body.usage) ? body.usage : null,
    finishReason: incomplete ?? (typeof body.status === "string" ? body.status : null),
  };
  try {
    outcome.reply = oneReply(readResponsesOutput(body).messages);
  } catch {
    // An output the converter cannot read is passed to the agent as it is and kept on the exchange, not in the history.
  }
  return outcome;
}

const FINAL_EVENTS = new Set(["response.completed", "response.incomplete", "response.failed"]);

/**
 * P-R3: reads a Responses event stream: the final `response.*` event's
 * response when it came; else the snapshot of `response.created` with the
 * items done so far and the text and arguments of those still streaming.
 */
export class ResponsesStreamAssembler implements StreamAssembler {
  chunks = 0;
  streamError: unknown = null;
  private snapshot: Record<string, unknown> = { object: "response", output: [] };
  private final = false;
  private readonly items = new Map<number, Record<string, unknown>>();
  private readonly deltas = new Map<number, string[]>();

  add(message: SseMessage): void {
    let event: unknown;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    if (!isRecord(event)) return;
    this.chunks += 1;
    const type = typeof event.type === "string" ? event.type : message.event;
    const index = typeof event.output_index === "number" ? event.output_index : -1;
    if (type === "error") this.streamError = event;
    else if (isRecord(event.response) && (type === "response.created" || type === "response.in_progress" || FINAL_EVENTS.has(type ?? ""))) {
      this.snapshot = event.response;
      if (FINAL_EVENTS.has(type ?? "")) this.final = true;
      if (type === "response.failed") this.streamError = event.response.error ?? event.response;
    } else if ((type === "response.output_item.added" || type === "response.output_item.done") && isRecord(event.item)) {
      this.items.set(index, event.item);
      if (type === "response.output_item.done") this.deltas.delete(index);
    } else if ((type === "response.output_text.delta" || type === "response.function_call_arguments.delta") && typeof event.delta === "string") {
      this.deltas.set(index, [...(this.deltas.get(index) ?? []), event.delta]);
    }
  }

  response(): Record<string, unknown> {
    if (this.final) return this.snapshot;
    const output = [...this.items.entries()]
      .sort(([left], [right]) => left - right)
      .map(([index, item]) => {
        const streamed = this.deltas.get(index)?.join("");
        if (streamed === undefined) return item;
        if (item.type === "message") return { ...item, content: [{ type: "output_text", text: streamed, annotations: [] }] };
        return { ...item, arguments: streamed };
      });
    return { ...this.snapshot, output };
  }

  outcome(): CompletionOutcome {
    return outcomeOfResponse(this.response());
  }

  get complete(): boolean {
    return this.final;
  }

  /** An output item calling something other than `toolName` (text and reasoning are not calls): the round is the agent's (PX-R3). */
  answersBeyond(toolName: string): boolean {
    return [...this.items.values()].some(
      (item) => item.type !== "reasoning" && item.type !== "message" && !(item.type === "function_call" && item.name === toolName),
    );
  }
}

export const openAIResponses: Protocol = {
  name: "openai-responses",
  errorShape: "openai",
  readRequest,
  upstream: resolveUpstream,
  notConfigured: "set CONTEXT_LAB_UPSTREAM_BASE_URL (and CONTEXT_LAB_UPSTREAM_API_KEY) or save one with PUT /api/settings/upstream",
  url: (upstream, search) => `${upstream.baseUrl}/responses${search}`,
  headers: upstreamRequestHeaders,
  outcome: outcomeOfResponse,
  assembler: () => new ResponsesStreamAssembler(),
  continued: continuedMessages,
  answered: rememberResponse,
  writeHistory: (messages, tools: ToolDefinition[]) => writeResponsesRequest({ messages, tools }).value,
  // The processed history is whole: continuing a stored response as well would send it twice.
  supersededFields: ["instructions", "input", "tools", "previous_response_id"],
  outputLimit: { fields: ["max_output_tokens"], fieldFor: () => "max_output_tokens" },
  streamError: (status, answer) => {
    const inner = isRecord(answer) && isRecord(answer.error) ? answer.error : {};
    const event = { type: "error", code: inner.code ?? null, message: inner.message ?? `the upstream answered ${status}`, param: inner.param ?? null };
    return `event: error\ndata: ${JSON.stringify(event)}\n\n`;
  },
};
