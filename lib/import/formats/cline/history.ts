/**
 * Cline's `api_conversation_history.json` (VS Code globalStorage:
 * `saoudrizwan.claude-dev/tasks/<task id>/`): the Anthropic messages Cline
 * sent, with `modelInfo`, `metrics` and `ts` beside them in newer versions.
 * Tool uses written as tags in the assistant's text become tool calls with
 * generated ids; the outcome texts of the next user turn become their results,
 * paired by position; `<thinking>` tags become reasoning. Read through the
 * Anthropic reader.
 */
import { type CallFacts, isoTime, readReportedUsage } from "@/lib/formats";
import { isRecord } from "../../issues";
import type { DocumentImporter, ImportContext, ImportPlace } from "../../registry";
import type { ConversationDraft } from "../../requests";
import { readAnthropicWire, type WireMessage } from "../anthropic-wire";
import { outcomeTool, pairOutcomes, type PendingCall } from "./results";
import { splitTaggedText } from "./tags";
import { addCost, clineSession, taskTitle, workspaceOf } from "./task";

export const clineHistoryImporter: DocumentImporter = {
  format: "cline",
  detect: isClineHistory,
  convert: (value, place, context) => [convertHistory(value as unknown[], place, context)],
};

function isClineHistory(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  const messages = value.every(
    (message) =>
      isRecord(message) && (message.role === "user" || message.role === "assistant") && (typeof message.content === "string" || Array.isArray(message.content)),
  );
  return messages && value.some((message) => isRecord(message.modelInfo) || (message.role === "user" && blocksOf(message.content).some(isClineUserText)));
}

function isClineUserText(block: unknown): boolean {
  if (!isRecord(block) || typeof block.text !== "string") return false;
  return block.text.startsWith("<task>") || block.text.includes("<environment_details>") || outcomeTool(block) !== undefined;
}

function blocksOf(content: unknown): unknown[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content : [];
}

/** What the rewriting of tagged text and outcome texts did, for the warnings. */
interface Rewrites {
  generated: number;
  firstGenerated?: number;
  paired: number;
  firstPaired?: number;
  filled: number;
  firstFilled?: number;
  stray: number;
}

function convertHistory(raw: readonly unknown[], place: ImportPlace, context: ImportContext): ConversationDraft {
  const scope = context.scope(place.path, place.conversationIndex);
  const rewrites: Rewrites = { generated: 0, paired: 0, filled: 0, stray: 0 };
  const wire: WireMessage[] = [];
  let pending: PendingCall[] = [];
  raw.forEach((message, index) => {
    const record = message as Record<string, unknown>;
    const role = String(record.role);
    let content = record.content;
    if (role === "assistant") {
      const expanded = expandAssistant(blocksOf(content), index, rewrites);
      content = expanded.blocks;
      pending = expanded.calls;
    } else {
      content = answer(blocksOf(content), pending, wire.length, rewrites);
      pending = [];
    }
    wire.push({ role, content, source: [...place.path, index] });
  });
  // The task ended on calls nothing answered (attempt_completion, mostly): empty results keep them.
  if (pending.length > 0) wire.push({ role: "user", content: answer([], pending, wire.length, rewrites), source: [...place.path, raw.length - 1] });
  const { messages, starts } = readAnthropicWire(scope, wire);
  const at = (wireIndex: number | undefined) => (wireIndex === undefined ? undefined : starts[wireIndex]);
  if (rewrites.generated > 0)
    scope.warn("call-id-generated", `${rewrites.generated} tool uses were written as tags in the text: each became a tool call with an id from its position`, {
      messageIndex: at(rewrites.firstGenerated),
    });
  if (rewrites.paired > 0)
    scope.warn(
      "paired-by-position",
      `${rewrites.paired} tool results were written as user text ("[tool] Result:"): each answers the call at the same position in the turn before`,
      { messageIndex: at(rewrites.firstPaired) },
    );
  if (rewrites.filled > 0)
    scope.warn(
      "part-approximated",
      `${rewrites.filled} tool calls got no result before the task moved on or ended: each was given an empty result so it is kept`,
      {
        messageIndex: at(rewrites.firstFilled),
      },
    );
  if (rewrites.stray > 0)
    scope.warn("part-dropped", `${rewrites.stray} tool tags held text outside their parameters, which Cline ignores too: left out`, {
      messageIndex: at(rewrites.firstGenerated),
    });
  const draft: ConversationDraft = { format: "cline", messages, warnings: scope.warnings };
  const lumped = addFacts(draft, raw, starts);
  if (lumped !== undefined)
    scope.warn("part-approximated", "Cline's stored metrics add cache writes and cache reads together (tokens.cached): the sum was kept as cache reads", {
      messageIndex: lumped,
    });
  return draft;
}

/** A user turn's blocks with the outcomes of the calls before it as tool results (counted in `rewrites`). */
function answer(blocks: readonly unknown[], calls: readonly PendingCall[], wireIndex: number, rewrites: Rewrites): unknown[] {
  const paired = pairOutcomes(blocks, calls);
  if (paired.paired > 0) rewrites.firstPaired ??= wireIndex;
  if (paired.filled > 0) rewrites.firstFilled ??= wireIndex;
  rewrites.paired += paired.paired;
  rewrites.filled += paired.filled;
  return paired.blocks;
}

/** An assistant turn's blocks with tagged text split into text, thinking and tool_use blocks; its calls in order. */
function expandAssistant(blocks: readonly unknown[], index: number, rewrites: Rewrites): { blocks: unknown[]; calls: PendingCall[] } {
  const expanded: unknown[] = [];
  const calls: PendingCall[] = [];
  for (const block of blocks) {
    const segments = isRecord(block) && block.type === "text" && typeof block.text === "string" ? splitTaggedText(block.text) : undefined;
    if (segments === undefined) {
      expanded.push(block);
      if (isRecord(block) && block.type === "tool_use" && typeof block.id === "string") calls.push({ id: block.id, name: String(block.name) });
      continue;
    }
    for (const segment of segments) {
      if (segment.type === "text") expanded.push({ type: "text", text: segment.text });
      else if (segment.type === "thinking") expanded.push({ type: "thinking", thinking: segment.text });
      else {
        const id = `cline_call_${index}_${calls.length}`;
        expanded.push({ type: "tool_use", id, name: segment.name, input: segment.input });
        calls.push({ id, name: segment.name });
        rewrites.generated += 1;
        rewrites.firstGenerated ??= index;
        if (segment.stray !== "") rewrites.stray += 1;
      }
    }
  }
  return { blocks: expanded, calls };
}

/**
 * IM-10: each assistant turn's time, model, usage and response id; each user
 * turn's time; the task's title, workspace and cost. Returns the first message
 * whose usage counts cache writes as reads, if any.
 */
function addFacts(draft: ConversationDraft, raw: readonly unknown[], starts: readonly number[]): number | undefined {
  const facts: (CallFacts | undefined)[] = new Array(draft.messages.length).fill(undefined);
  let cost: number | undefined;
  let cwd: string | undefined;
  let title: string | undefined;
  let lumped: number | undefined;
  raw.forEach((message, index) => {
    const record = message as Record<string, unknown>;
    const first = starts[index];
    const end = index + 1 < starts.length ? starts[index + 1] : draft.messages.length;
    if (first >= end) return;
    const time = isoTime(record.ts);
    if (record.role === "user") {
      const texts = blocksOf(record.content).flatMap((block) => (isRecord(block) && typeof block.text === "string" ? [block.text] : []));
      title ??= taskTitle(texts.find((text) => text.startsWith("<task>")));
      cwd ??= texts.map(workspaceOf).find((found) => found !== undefined);
      if (time !== undefined) for (let position = first; position < end; position += 1) facts[position] = { at: time };
      return;
    }
    const metrics = isRecord(record.metrics) ? record.metrics : {};
    const call: CallFacts = {};
    if (time !== undefined) call.at = time;
    if (isRecord(record.modelInfo) && typeof record.modelInfo.modelId === "string") call.model = record.modelInfo.modelId;
    const usage = readReportedUsage(metrics.tokens);
    if (usage !== undefined) call.usage = usage;
    if (usage !== undefined && usage.cacheRead > 0) lumped ??= first;
    if (typeof record.id === "string") call.responseId = record.id;
    if (Object.keys(call).length > 0) facts[first] = call;
    cost = addCost(cost, metrics.cost);
  });
  if (facts.some((entry) => entry !== undefined)) draft.facts = facts;
  draft.session = clineSession(cwd);
  if (cost !== undefined) draft.source = { cost };
  if (title !== undefined) draft.title = title;
  return lumped;
}
