import type { FakeReply, FakeRequest, SsePayload } from "../fake-openai";
import { pieces } from "./text";

/**
 * The Anthropic Messages side of the fake upstream: messages and their event
 * streams built from a scripted reply (a thinking block with its signature,
 * text, tool uses), token counts, errors in Anthropic's shape, and the 400s
 * the real API answers when tool uses and tool results do not pair.
 */

type Block = Record<string, unknown>;
interface WireMessage {
  role?: string;
  content?: string | Block[];
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

export function anthropicErrorBody(status: number, message = `fake error ${status}`) {
  return { type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message } };
}

function messagesOf(request: FakeRequest): WireMessage[] {
  return Array.isArray(request.body?.messages) ? (request.body.messages as WireMessage[]) : [];
}

function blocksOf(message: WireMessage | undefined): Block[] {
  return Array.isArray(message?.content) ? message.content : [];
}

/** The 400 the Messages API answers when a tool use has no result right after it, or a result no use before it; else null. */
export function anthropicPairingError(request: FakeRequest): unknown {
  const messages = messagesOf(request);
  for (let index = 0; index < messages.length; index += 1) {
    const uses = blocksOf(messages[index - 1])
      .filter((block) => block.type === "tool_use")
      .map((block) => String(block.id));
    const results = blocksOf(messages[index])
      .filter((block) => block.type === "tool_result")
      .map((block) => String(block.tool_use_id));
    const unexpected = results.find((id) => !uses.includes(id));
    if (unexpected !== undefined) {
      return anthropicErrorBody(
        400,
        `messages.${index}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
    }
  }
  for (let index = 0; index < messages.length; index += 1) {
    const uses = blocksOf(messages[index])
      .filter((block) => block.type === "tool_use")
      .map((block) => String(block.id));
    if (uses.length === 0 || index === messages.length - 1) continue;
    const results = new Set(
      blocksOf(messages[index + 1])
        .filter((block) => block.type === "tool_result")
        .map((block) => String(block.tool_use_id)),
    );
    const missing = uses.filter((id) => !results.has(id));
    if (missing.length > 0) {
      return anthropicErrorBody(
        400,
        `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
  }
  return null;
}

export function lastAnthropicUserText(request: FakeRequest): string {
  const user = [...messagesOf(request)].reverse().find((message) => message.role === "user");
  if (typeof user?.content === "string") return user.content;
  return blocksOf(user)
    .filter((block) => block.type === "text")
    .map((block) => String(block.text))
    .join("");
}

function usage(reply: FakeReply, request: FakeRequest) {
  const output = reply.usage?.completion_tokens ?? (reply.content ?? "").length + (reply.reasoning ?? "").length;
  if (reply.cache) {
    const { prompt, read, write5m, write1h } = reply.cache;
    return {
      input_tokens: prompt - read - write5m - write1h,
      output_tokens: output,
      cache_creation_input_tokens: write5m + write1h,
      cache_read_input_tokens: read,
      cache_creation: { ephemeral_5m_input_tokens: write5m, ephemeral_1h_input_tokens: write1h },
    };
  }
  return {
    input_tokens: reply.usage?.prompt_tokens ?? JSON.stringify(request.body?.messages ?? []).length,
    output_tokens: reply.usage?.completion_tokens ?? (reply.content ?? "").length + (reply.reasoning ?? "").length,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

function signatureOf(serial: number): string {
  return `sig-fake-${serial}`;
}

function contentBlocks(reply: FakeReply, serial: number): Block[] {
  const blocks: Block[] = [];
  if (reply.reasoning !== undefined) blocks.push({ type: "thinking", thinking: reply.reasoning, signature: signatureOf(serial) });
  if (reply.content) blocks.push({ type: "text", text: reply.content });
  (reply.toolCalls ?? []).forEach((call, index) => {
    blocks.push({ type: "tool_use", id: call.id ?? `toolu_fake_${serial}_${index}`, name: call.name, input: JSON.parse(call.arguments) as unknown });
  });
  return blocks;
}

function stopReason(reply: FakeReply): string {
  return reply.finishReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? "tool_use" : "end_turn");
}

export function anthropicMessageBody(reply: FakeReply, request: FakeRequest, serial: number) {
  return {
    id: `msg_fake_${serial}`,
    type: "message",
    role: "assistant",
    model: reply.model ?? (typeof request.body?.model === "string" ? request.body.model : "fake-claude"),
    content: contentBlocks(reply, serial),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: usage(reply, request),
  };
}

/** `/v1/messages/count_tokens`: one token per four characters of the messages and system prompt. */
export function countTokensBody(request: FakeRequest) {
  const text = JSON.stringify([request.body?.system ?? null, request.body?.messages ?? [], request.body?.tools ?? []]);
  return { input_tokens: Math.ceil(text.length / 4) };
}

/** The events of a streamed message: message_start, each block's start, deltas and stop, message_delta, message_stop. */
export function anthropicStreamPayloads(reply: FakeReply, request: FakeRequest, serial: number): SsePayload[] {
  const size = reply.chunkSize ?? 4;
  const whole = anthropicMessageBody(reply, request, serial);
  const events: Block[] = [
    { type: "message_start", message: { ...whole, content: [], stop_reason: null, usage: { ...whole.usage, output_tokens: 1 } } },
    { type: "ping" },
  ];
  whole.content.forEach((block, index) => {
    if (block.type === "thinking") {
      events.push({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } });
      for (const piece of pieces(String(block.thinking), size))
        events.push({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } });
      events.push({ type: "content_block_delta", index, delta: { type: "signature_delta", signature: block.signature } });
    } else if (block.type === "text") {
      events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
      for (const piece of pieces(String(block.text), size)) events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
    } else {
      events.push({ type: "content_block_start", index, content_block: { ...block, input: {} } });
      for (const piece of pieces(JSON.stringify(block.input), size))
        events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    events.push({ type: "content_block_stop", index });
  });
  events.push({ type: "message_delta", delta: { stop_reason: whole.stop_reason, stop_sequence: null }, usage: { output_tokens: whole.usage.output_tokens } });
  events.push({ type: "message_stop" });
  return events.map((event) => ({ event: String(event.type), data: JSON.stringify(event) }));
}
