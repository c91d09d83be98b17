import type { FakeReply, FakeRequest, SsePayload } from "../fake-openai";
import { pieces } from "./text";

/**
 * The OpenAI Responses side of the fake upstream: response objects and their
 * event streams built from a scripted reply (reasoning summary, text, function
 * calls), `previous_response_id` chains kept in memory unless `store: false`,
 * and the 400s the real API answers for unknown previous responses and for
 * calls and outputs that do not pair.
 */

type Item = Record<string, unknown>;

/** What a stored response continues with: every item before it, then its output. */
export type ResponseStore = Map<string, Item[]>;

export function responseId(serial: number): string {
  return `resp_fake_${serial}`;
}

function inputItems(request: FakeRequest): Item[] {
  const input = request.body?.input;
  if (typeof input === "string") return [{ role: "user", content: input }];
  return Array.isArray(input) ? (input as Item[]) : [];
}

/** The input with each `item_reference` replaced by the stored item it names; an unknown one is a 404-like 400. */
function resolvedInput(request: FakeRequest, store: ResponseStore): Item[] | { error: { status: number; body: unknown } } {
  const stored = new Map<string, Item>();
  for (const items of store.values()) for (const item of items) if (typeof item.id === "string") stored.set(item.id, item);
  const input: Item[] = [];
  for (const item of inputItems(request)) {
    if (item.type !== "item_reference") {
      input.push(item);
      continue;
    }
    const found = stored.get(String(item.id));
    if (!found)
      return {
        error: {
          status: 400,
          body: { error: { message: `Item with id '${String(item.id)}' not found.`, type: "invalid_request_error", param: "input", code: null } },
        },
      };
    input.push(found);
  }
  return input;
}

/** The whole item list the model sees: the previous responses' items, then this input (references resolved). */
export function conversationItems(request: FakeRequest, store: ResponseStore): Item[] | { error: { status: number; body: unknown } } {
  const input = resolvedInput(request, store);
  if (!Array.isArray(input)) return input;
  const previous = request.body?.previous_response_id;
  if (typeof previous !== "string") return input;
  const before = store.get(previous);
  if (!before) {
    const error = {
      message: `Previous response with id '${previous}' not found.`,
      type: "invalid_request_error",
      param: "previous_response_id",
      code: "previous_response_not_found",
    };
    return { error: { status: 400, body: { error: error } } };
  }
  return [...before, ...input];
}

/** The 400 the Responses API answers when a call and its output do not pair, or null. */
export function responsesPairingError(items: Item[]): unknown {
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const item of items) {
    if (item.type === "function_call" && typeof item.call_id === "string") calls.add(item.call_id);
    if (item.type === "function_call_output" && typeof item.call_id === "string") {
      if (!calls.has(item.call_id)) return invalid(`No tool call found for function call output with call_id ${item.call_id}.`);
      answered.add(item.call_id);
    }
  }
  const unanswered = [...calls].find((id) => !answered.has(id));
  return unanswered === undefined ? null : invalid(`No tool output found for function call ${unanswered}.`);
}

function invalid(message: string) {
  return { error: { message, type: "invalid_request_error", param: "input", code: null } };
}

export function lastResponsesUserText(request: FakeRequest): string {
  const user = [...inputItems(request)].reverse().find((item) => item.role === "user");
  const content = user?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? "").join("");
  return JSON.stringify(content ?? null);
}

function usage(reply: FakeReply, request: FakeRequest) {
  const input = reply.usage?.prompt_tokens ?? JSON.stringify(request.body?.input ?? []).length;
  const output = reply.usage?.completion_tokens ?? (reply.content ?? "").length + (reply.reasoning ?? "").length;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: (reply.reasoning ?? "").length },
    total_tokens: input + output,
  };
}

/** The output items of a reply: reasoning, the message, then each function call. */
export function outputItems(reply: FakeReply, serial: number): Item[] {
  const items: Item[] = [];
  if (reply.reasoning !== undefined) {
    items.push({ type: "reasoning", id: `rs_fake_${serial}`, summary: [{ type: "summary_text", text: reply.reasoning }] });
  }
  if (reply.content) {
    items.push({
      type: "message",
      id: `msg_fake_${serial}`,
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: reply.content, annotations: [], logprobs: [] }],
    });
  }
  (reply.toolCalls ?? []).forEach((call, index) => {
    items.push({
      type: "function_call",
      id: `fc_fake_${serial}_${index}`,
      call_id: call.id ?? `call_${serial}_${index}`,
      name: call.name,
      arguments: call.arguments,
      status: "completed",
    });
  });
  return items;
}

export function responseBody(reply: FakeReply, request: FakeRequest, serial: number, status = "completed"): Item {
  const body = request.body ?? {};
  return {
    id: responseId(serial),
    object: "response",
    created_at: 1_700_000_000 + serial,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: reply.model ?? (typeof body.model === "string" ? body.model : "fake-gpt"),
    output: status === "completed" ? outputItems(reply, serial) : [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    service_tier: "default",
    store: body.store !== false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_p: 1,
    truncation: "disabled",
    usage: status === "completed" ? usage(reply, request) : null,
    user: null,
    metadata: {},
  };
}

/** The events of a streamed response, in the order the API sends them. */
export function responsesStreamPayloads(reply: FakeReply, request: FakeRequest, serial: number): SsePayload[] {
  const size = reply.chunkSize ?? 4;
  const events: Item[] = [];
  const initial = responseBody(reply, request, serial, "in_progress");
  events.push({ type: "response.created", response: initial }, { type: "response.in_progress", response: initial });
  outputItems(reply, serial).forEach((item, outputIndex) => {
    const id = item.id;
    if (item.type === "reasoning") {
      const text = (item.summary as { text: string }[])[0].text;
      events.push({ type: "response.output_item.added", output_index: outputIndex, item: { ...item, summary: [] } });
      events.push({
        type: "response.reasoning_summary_part.added",
        item_id: id,
        output_index: outputIndex,
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      });
      for (const piece of pieces(text, size))
        events.push({ type: "response.reasoning_summary_text.delta", item_id: id, output_index: outputIndex, summary_index: 0, delta: piece });
      events.push({ type: "response.reasoning_summary_text.done", item_id: id, output_index: outputIndex, summary_index: 0, text });
      events.push({
        type: "response.reasoning_summary_part.done",
        item_id: id,
        output_index: outputIndex,
        summary_index: 0,
        part: { type: "summary_text", text },
      });
    } else if (item.type === "message") {
      const text = (item.content as { text: string }[])[0].text;
      events.push({ type: "response.output_item.added", output_index: outputIndex, item: { ...item, status: "in_progress", content: [] } });
      const part = { type: "output_text", text: "", annotations: [], logprobs: [] };
      events.push({ type: "response.content_part.added", item_id: id, output_index: outputIndex, content_index: 0, part });
      for (const piece of pieces(text, size))
        events.push({ type: "response.output_text.delta", item_id: id, output_index: outputIndex, content_index: 0, delta: piece, logprobs: [] });
      events.push({ type: "response.output_text.done", item_id: id, output_index: outputIndex, content_index: 0, text, logprobs: [] });
      events.push({ type: "response.content_part.done", item_id: id, output_index: outputIndex, content_index: 0, part: { ...part, text } });
    } else {
      const args = String(item.arguments);
      events.push({ type: "response.output_item.added", output_index: outputIndex, item: { ...item, status: "in_progress", arguments: "" } });
      for (const piece of pieces(args, size))
        events.push({ type: "response.function_call_arguments.delta", item_id: id, output_index: outputIndex, delta: piece });
      events.push({ type: "response.function_call_arguments.done", item_id: id, output_index: outputIndex, arguments: args });
    }
    events.push({ type: "response.output_item.done", output_index: outputIndex, item });
  });
  events.push({ type: "response.completed", response: responseBody(reply, request, serial) });
  return events.map((event, index) => ({ event: String(event.type), data: JSON.stringify({ ...event, sequence_number: index }) }));
}
