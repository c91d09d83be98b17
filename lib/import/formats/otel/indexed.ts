/**
 * The older indexed attributes OpenLLMetry (Traceloop) writes:
 * `gen_ai.prompt.N.role / .content / .tool_call_id / .tool_calls.M.*` and
 * `gen_ai.completion.N.*` (`llm.prompts.N.*` / `llm.completions.N.*` before
 * that). Content that was a list is held as its JSON; Anthropic spans hold
 * Anthropic blocks there (tool results included) and are read as Anthropic,
 * and a `thinking` completion is the reasoning of the answer after it.
 */
import { isRecord, type JsonPath } from "../../issues";
import { mediaBlock, type WireMessage } from "../anthropic-wire";
import type { ChatWireMessage } from "../chat-wire";
import { CallIds, type Entry, FAMILIES, entries, pairFunctionResults } from "./entries";
import type { Span } from "./spans";

const ANTHROPIC_ONLY = new Set(["tool_use", "tool_result", "thinking", "redacted_thinking", "document"]);

export type IndexedWire = (
  | { dialect: "openai-chat"; input: ChatWireMessage[]; output: ChatWireMessage[] }
  | { dialect: "anthropic"; input: WireMessage[]; output: WireMessage[] }
) & {
  /** Calls that had no id (a legacy `function_call`) and were given one, and where. */
  generatedIds: { id: string; path: JsonPath }[];
  /** `function` results that named no call and were paired with the oldest unanswered one, by the id they were given. */
  pairedByPosition: { id: string; path: JsonPath }[];
};

function isAnthropicSpan(span: Span, all: readonly Entry[]): boolean {
  if (all.some((entry) => entry.role === "tool" || entry.toolCallId !== undefined)) return false;
  const system = span.attributes.get("gen_ai.system")?.value ?? span.attributes.get("gen_ai.provider.name")?.value;
  if (typeof system === "string" && /anthropic/i.test(system)) return true;
  return all.some(
    (entry) =>
      Array.isArray(entry.content) &&
      entry.content.some((block) => isRecord(block) && (ANTHROPIC_ONLY.has(String(block.type)) || (block.type === "image" && "source" in block))),
  );
}

/** The span's prompt and answer as wire messages of the dialect its content is written in. */
export function indexedMessages(span: Span): IndexedWire {
  const ids = new CallIds();
  const prompt = entries(span, FAMILIES.prompt, ids);
  const completion = entries(span, FAMILIES.completion, ids);
  const found = { generatedIds: ids.generated, pairedByPosition: pairFunctionResults(prompt) };
  if (isAnthropicSpan(span, [...prompt, ...completion]))
    return { dialect: "anthropic", input: toAnthropic(prompt, "user"), output: toAnthropic(completion, "assistant"), ...found };
  return { dialect: "openai-chat", input: toChat(prompt, "user"), output: toChat(completion, "assistant"), ...found };
}

function text(value: unknown): string {
  return typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value);
}

function toChat(list: readonly Entry[], defaultRole: string): ChatWireMessage[] {
  const wire: ChatWireMessage[] = [];
  let reasoning: { text: string; source: JsonPath } | undefined;
  for (const entry of list) {
    if (entry.role === "thinking") {
      reasoning = { text: (reasoning?.text ?? "") + text(entry.content), source: reasoning?.source ?? entry.source };
      continue;
    }
    const role = entry.role ?? defaultRole;
    const message: Record<string, unknown> = { role, content: entry.content ?? (role === "assistant" ? null : "") };
    if (entry.toolCallId !== undefined) message.tool_call_id = entry.toolCallId;
    if (entry.refusal !== undefined) message.refusal = entry.refusal;
    if (entry.calls.length > 0)
      message.tool_calls = entry.calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: text(call.arguments) || "{}" },
      }));
    if (reasoning !== undefined && role === "assistant") {
      message.reasoning_content = reasoning.text;
      reasoning = undefined;
    }
    wire.push({ message, source: entry.source });
  }
  if (reasoning !== undefined) wire.push({ message: { role: "assistant", content: null, reasoning_content: reasoning.text }, source: reasoning.source });
  return wire;
}

function toAnthropic(list: readonly Entry[], defaultRole: string): WireMessage[] {
  const wire: WireMessage[] = [];
  let thinking: Record<string, unknown>[] = [];
  let thinkingSource: JsonPath | undefined;
  for (const entry of list) {
    if (entry.role === "thinking") {
      thinking.push({ type: "thinking", thinking: text(entry.content) });
      thinkingSource ??= entry.source;
      continue;
    }
    const role = entry.role ?? defaultRole;
    if (role === "system") {
      wire.push({ role, content: entry.content ?? "", source: entry.source });
      continue;
    }
    const blocks: unknown[] = Array.isArray(entry.content)
      ? entry.content.map(uploadedImage)
      : typeof entry.content === "string" && entry.content !== ""
        ? [{ type: "text", text: entry.content }]
        : [];
    if (entry.refusal !== undefined) blocks.push({ type: "text", text: entry.refusal });
    // OpenLLMetry writes an assistant's tool_use blocks both in its content and as tool_calls attributes.
    const ids = new Set(blocks.flatMap((block) => (isRecord(block) && block.type === "tool_use" ? [block.id] : [])));
    for (const call of entry.calls)
      if (!ids.has(call.id)) blocks.push({ type: "tool_use", id: call.id, name: call.name, input: parseArguments(call.arguments) });
    if (role === "assistant" && thinking.length > 0) {
      blocks.unshift(...thinking);
      thinking = [];
    }
    wire.push({ role, content: blocks, source: entry.source });
  }
  if (thinking.length > 0) wire.push({ role: "assistant", content: thinking, source: thinkingSource ?? [] });
  return wire;
}

/** OpenLLMetry can upload a base64 image and put `{type: "image_url"}` with the upload's URL in its place. */
function uploadedImage(block: unknown): unknown {
  if (!isRecord(block) || block.type !== "image_url" || !isRecord(block.image_url) || typeof block.image_url.url !== "string") return block;
  return mediaBlock(block.image_url.url, undefined);
}

function parseArguments(value: unknown): unknown {
  if (typeof value !== "string") return value ?? {};
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
