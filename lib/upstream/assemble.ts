import type { Message } from "@/lib/context";
import { readChatReply } from "@/lib/proxy/canonical";
import type { SseMessage } from "./sse";

/** What the recorder keeps of a model's answer, streamed or not. */
export interface CompletionOutcome {
  /** The assistant message of choice 0, or null when there is none (an error, a cut stream before any delta). */
  reply: Message | null;
  model: string | null;
  finishReason: string | null;
  usage: Record<string, unknown> | null;
}

interface ToolCallParts {
  id: string;
  type: string;
  name: string;
  arguments: string[];
}

interface ChoiceParts {
  index: number;
  role: string;
  content: string[];
  refusal: string[];
  toolCalls: Map<number, ToolCallParts>;
  finishReason: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Rebuilds a chat completion from its streamed chunks: content and refusal
 * deltas concatenated, tool calls assembled by their `index` (id and name
 * arrive once, arguments in pieces), finish reason and the usage chunk kept.
 */
export class CompletionAssembler {
  private readonly choices = new Map<number, ChoiceParts>();
  private id: string | null = null;
  private created: number | null = null;
  private model: string | null = null;
  private systemFingerprint: string | null = null;
  private usage: Record<string, unknown> | null = null;
  /** Chunks added, `[DONE]` excluded. */
  chunks = 0;
  done = false;
  /** An `{error}` object the upstream sent inside the stream. */
  streamError: unknown = null;

  add(message: SseMessage): void {
    this.addData(message.data);
  }

  response(): Record<string, unknown> {
    return this.completion();
  }

  outcome(): CompletionOutcome {
    return outcomeOfCompletion(this.completion());
  }

  /** Adds one `data:` payload; `[DONE]` and unparseable data are noted, never thrown. */
  addData(data: string): void {
    if (data.trim() === "[DONE]") {
      this.done = true;
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      return;
    }
    this.addChunk(chunk);
  }

  addChunk(chunk: unknown): void {
    if (!isRecord(chunk)) return;
    this.chunks += 1;
    if (chunk.error !== undefined) this.streamError = chunk.error;
    if (typeof chunk.id === "string") this.id ??= chunk.id;
    if (typeof chunk.created === "number") this.created ??= chunk.created;
    if (typeof chunk.model === "string") this.model ??= chunk.model;
    if (typeof chunk.system_fingerprint === "string") this.systemFingerprint = chunk.system_fingerprint;
    if (isRecord(chunk.usage)) this.usage = chunk.usage;
    if (!Array.isArray(chunk.choices)) return;
    for (const choice of chunk.choices) {
      if (isRecord(choice)) this.addChoice(choice);
    }
  }

  private addChoice(choice: Record<string, unknown>): void {
    const index = typeof choice.index === "number" ? choice.index : 0;
    let parts = this.choices.get(index);
    if (!parts) {
      parts = { index, role: "assistant", content: [], refusal: [], toolCalls: new Map(), finishReason: null };
      this.choices.set(index, parts);
    }
    if (typeof choice.finish_reason === "string") parts.finishReason = choice.finish_reason;
    const delta = isRecord(choice.delta) ? choice.delta : undefined;
    if (!delta) return;
    if (typeof delta.role === "string") parts.role = delta.role;
    if (typeof delta.content === "string") parts.content.push(delta.content);
    if (typeof delta.refusal === "string") parts.refusal.push(delta.refusal);
    if (!Array.isArray(delta.tool_calls)) return;
    for (const call of delta.tool_calls) {
      if (!isRecord(call)) continue;
      const callIndex = typeof call.index === "number" ? call.index : parts.toolCalls.size;
      let callParts = parts.toolCalls.get(callIndex);
      if (!callParts) {
        callParts = { id: "", type: "function", name: "", arguments: [] };
        parts.toolCalls.set(callIndex, callParts);
      }
      if (typeof call.id === "string" && call.id !== "") callParts.id = call.id;
      if (typeof call.type === "string") callParts.type = call.type;
      const fn = isRecord(call.function) ? call.function : undefined;
      if (typeof fn?.name === "string") callParts.name += fn.name;
      if (typeof fn?.arguments === "string") callParts.arguments.push(fn.arguments);
    }
  }

  /** True once choice 0 calls a tool other than `toolName`: the round is the agent's (PX-R3). */
  answersBeyond(toolName: string): boolean {
    const first = this.choices.get(0);
    return first !== undefined && [...first.toolCalls.values()].some((call) => call.name !== "" && call.name !== toolName);
  }

  /** `[DONE]` came, or every choice has its finish reason (servers that leave out `[DONE]`). */
  get complete(): boolean {
    return this.done || (this.choices.size > 0 && [...this.choices.values()].every((choice) => choice.finishReason !== null));
  }

  /** The assembled answer in the non-streaming response's shape. */
  completion(): Record<string, unknown> {
    const choices = [...this.choices.values()]
      .sort((left, right) => left.index - right.index)
      .map((parts) => {
        const message: Record<string, unknown> = {
          role: parts.role,
          content: parts.content.length > 0 ? parts.content.join("") : null,
        };
        if (parts.refusal.length > 0) message.refusal = parts.refusal.join("");
        if (parts.toolCalls.size > 0) {
          message.tool_calls = [...parts.toolCalls.entries()]
            .sort(([left], [right]) => left - right)
            .map(([, call]) => ({ id: call.id, type: call.type, function: { name: call.name, arguments: call.arguments.join("") } }));
        }
        return { index: parts.index, message, finish_reason: parts.finishReason };
      });
    const completion: Record<string, unknown> = {
      id: this.id,
      object: "chat.completion",
      created: this.created,
      model: this.model,
      choices,
    };
    if (this.systemFingerprint !== null) completion.system_fingerprint = this.systemFingerprint;
    if (this.usage !== null) completion.usage = this.usage;
    return completion;
  }
}

/** The outcome of a (non-streaming or assembled) completion body: choice 0's message as a canonical assistant message. */
export function outcomeOfCompletion(body: unknown): CompletionOutcome {
  const none: CompletionOutcome = { reply: null, model: null, finishReason: null, usage: null };
  if (!isRecord(body)) return none;
  const choices = Array.isArray(body.choices) ? body.choices : [];
  const first = choices.find((choice) => isRecord(choice) && (choice.index ?? 0) === 0) ?? choices[0];
  const outcome: CompletionOutcome = {
    ...none,
    model: typeof body.model === "string" ? body.model : null,
    usage: isRecord(body.usage) ? body.usage : null,
  };
  if (!isRecord(first)) return outcome;
  outcome.finishReason = typeof first.finish_reason === "string" ? first.finish_reason : null;
  if (!isRecord(first.message)) return outcome;
  // A malformed message from the upstream is passed to the agent as it is and kept on the exchange, not in the history.
  outcome.reply = readChatReply(first.message);
  return outcome;
}
