/**
 * Reading Pydantic AI requests and responses into Anthropic wire messages,
 * one for each part a request holds and one for each response, with the facts
 * each keeps and what the blocks cannot hold, put back once they are read.
 */
import type { Message } from "@/lib/context/messages";
import { type CallFacts, isoTime, readReportedUsage } from "@/lib/formats";
import { isRecord, type JsonPath, type PathNotes } from "../issues";
import type { WireMessage } from "./anthropic-wire";
import { callArguments, retryText, toolResultContent, userBlocks } from "./pydantic-ai-parts";

type Raw = Record<string, unknown>;

/** What reading gathers besides the wire messages, per wire message where it says so. */
export interface History {
  wire: WireMessage[];
  facts: (CallFacts | undefined)[];
  /** Call id → the arguments text exactly as the model wrote it. */
  argumentTexts: Map<string, string>;
  /** Per wire message: what its reasoning parts keep that a thinking block has no field for (an OpenAI reasoning id and encrypted content). */
  reasoning: Map<number, { id?: string; encrypted?: string }[]>;
  compactions: { wire: number; summary?: string }[];
  instructions?: string;
  skipped: number;
  notes: PathNotes;
}

function push(history: History, message: WireMessage, facts: CallFacts | undefined): void {
  history.wire.push(message);
  history.facts.push(facts);
}

function timeFacts(...values: unknown[]): CallFacts | undefined {
  const at = values.map(isoTime).find((time) => time !== undefined);
  return at === undefined ? undefined : { at };
}

export function readRequest(message: Raw & { parts: unknown[] }, path: JsonPath, history: History): void {
  const instructions = message.instructions;
  if (typeof instructions === "string" && instructions !== "" && instructions !== history.instructions) {
    if (history.instructions !== undefined)
      history.notes.warn(
        "part-approximated",
        "the agent's instructions changed here: kept as a system message at this point, though each call sends only its own instructions, first",
        [...path, "instructions"],
      );
    history.instructions = instructions;
    push(history, { role: "system", content: instructions, source: [...path, "instructions"] }, timeFacts(message.timestamp));
  }
  message.parts.forEach((part: unknown, index) => {
    const partPath = [...path, "parts", index];
    if (!isRecord(part)) return history.notes.fail(partPath, "a part must be an object with a part_kind");
    const facts = timeFacts(part.timestamp, message.timestamp);
    const forTool = typeof part.tool_name === "string" && typeof part.tool_call_id === "string";
    switch (part.part_kind) {
      case "system-prompt":
      case "instruction":
        return push(history, { role: "system", content: typeof part.content === "string" ? part.content : "", source: partPath }, facts);
      case "user-prompt":
        return push(history, { role: "user", content: userBlocks(part.content, [...partPath, "content"], history.notes), source: partPath }, facts);
      case "tool-return": {
        const block: Raw = {
          type: "tool_result",
          tool_use_id: part.tool_call_id,
          content: toolResultContent(part.content, [...partPath, "content"], history.notes),
        };
        if (part.outcome === "failed" || part.outcome === "denied") block.is_error = true;
        return push(history, { role: "user", content: [block], source: partPath }, facts);
      }
      case "retry-prompt": {
        const text = retryText(part.content, forTool);
        const content = forTool ? [{ type: "tool_result", tool_use_id: part.tool_call_id, content: text, is_error: true }] : [{ type: "text", text }];
        return push(history, { role: "user", content, source: partPath }, facts);
      }
      case "tool-availability-delta":
        history.skipped += 1;
        return;
      default:
        history.notes.fail(
          [...partPath, "part_kind"],
          `unknown request part_kind ${JSON.stringify(part.part_kind)}: expected system-prompt, user-prompt, tool-return or retry-prompt`,
        );
    }
  });
}

export function readResponse(message: Raw & { parts: unknown[] }, path: JsonPath, history: History): void {
  const blocks: Raw[] = [];
  const reasoning: { id?: string; encrypted?: string }[] = [];
  message.parts.forEach((part: unknown, index) => {
    const partPath = [...path, "parts", index];
    if (!isRecord(part)) return history.notes.fail(partPath, "a part must be an object with a part_kind");
    const block = responseBlock(part, partPath, history, reasoning, message.provider_name);
    if (block !== undefined) blocks.push(block);
  });
  if (reasoning.length > 0) history.reasoning.set(history.wire.length, reasoning);
  const details = isRecord(message.provider_details) ? message.provider_details : isRecord(message.vendor_details) ? message.vendor_details : {};
  const facts: CallFacts = {};
  const at = isoTime(message.timestamp);
  if (at !== undefined) facts.at = at;
  if (typeof message.model_name === "string") facts.model = message.model_name;
  const usage = readReportedUsage(message.usage);
  if (usage !== undefined) facts.usage = usage;
  const responseId = message.provider_response_id ?? message.vendor_id;
  if (typeof responseId === "string") facts.responseId = responseId;
  const stop = message.finish_reason ?? details.finish_reason;
  if (typeof stop === "string") facts.stopReason = stop;
  push(history, { role: "assistant", content: blocks, source: path }, facts);
}

function responseBlock(part: Raw, path: JsonPath, history: History, reasoning: { id?: string; encrypted?: string }[], provider: unknown): Raw | undefined {
  const text = typeof part.content === "string" ? part.content : "";
  switch (part.part_kind) {
    case "text":
      return { type: "text", text };
    case "thinking": {
      // Pydantic AI keeps Anthropic's redacted thinking as a thinking part with this id and the data as its signature.
      if (part.id === "redacted_thinking" && typeof part.signature === "string") return { type: "redacted_thinking", data: part.signature };
      const openai = (part.provider_name ?? provider) === "openai";
      reasoning.push({
        ...(typeof part.id === "string" ? { id: part.id } : {}),
        ...(openai && typeof part.signature === "string" ? { encrypted: part.signature } : {}),
      });
      return !openai && typeof part.signature === "string"
        ? { type: "thinking", thinking: text, signature: part.signature }
        : { type: "thinking", thinking: text };
    }
    case "tool-call": {
      const { text: argumentText, input } = callArguments(part.args);
      if (typeof part.tool_call_id === "string" && argumentText !== undefined) history.argumentTexts.set(part.tool_call_id, argumentText);
      return { type: "tool_use", id: part.tool_call_id, name: part.tool_name, input };
    }
    case "builtin-tool-call":
      if (provider !== "anthropic")
        history.notes.warn("part-approximated", `a tool ${String(provider ?? "the provider")} ran itself was kept as an Anthropic server_tool_use block`, path);
      return { type: "server_tool_use", id: part.tool_call_id, name: part.tool_name, input: callArguments(part.args).input };
    case "builtin-tool-return":
      return { type: `${String(part.tool_name)}_tool_result`, tool_use_id: part.tool_call_id, content: part.content };
    case "file":
      return userBlocks([part.content], [...path, "content"], history.notes)[0];
    case "compaction":
      history.compactions.push(
        part.content === undefined || part.content === null ? { wire: history.wire.length + 1 } : { wire: history.wire.length + 1, summary: text },
      );
      return undefined;
    default:
      history.notes.fail(
        [...path, "part_kind"],
        `unknown response part_kind ${JSON.stringify(part.part_kind)}: expected text, thinking, tool-call, builtin-tool-call, builtin-tool-return, file or compaction`,
      );
      return undefined;
  }
}

/** Puts back what the blocks could not hold: arguments text exactly as written, OpenAI reasoning ids and encrypted content. */
export function restoreCallFields(messages: Message[], starts: readonly number[], history: History): void {
  for (const message of messages)
    for (const call of message.tool_calls ?? []) {
      const text = history.argumentTexts.get(call.id);
      if (text !== undefined) call.function.arguments = text;
    }
  for (const [wire, patches] of history.reasoning) {
    const parts = (messages[starts[wire]]?.parts ?? []).filter((part) => part.type === "reasoning");
    patches.forEach((patch, index) => {
      const part = parts[index];
      if (part?.type === "reasoning") Object.assign(part, patch);
    });
  }
}
