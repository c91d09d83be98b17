/**
 * Codex CLI rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`):
 * lines `{timestamp, type, payload}`. `response_item` payloads are OpenAI
 * Responses items and are read as such, in segments that each end with a
 * model call's `token_count` event, whose usage goes to the call's first
 * assistant message (IM-10). `session_meta` names the session (F-SF3),
 * `turn_context` the model of the calls after it; a `compacted` line is a
 * compaction whose `replacement_history` is what the model received from then
 * on (IM-11); the other `event_msg` lines repeat the items for the terminal and
 * are skipped.
 */
import type { Message } from "@/lib/context/messages";
import { isoTime, nameToolResults, readReportedUsage, readResponsesItems, type CallFacts, type ReportedUsage, type SessionFacts } from "@/lib/formats";
import { isRecord, type JsonPath, type MessageScope } from "../issues";
import type { JsonlRecord } from "../jsonl";
import type { LinesImporter } from "../registry";
import { readMapped, type ConversationDraft } from "../requests";
import type { ImportedCompaction } from "../types";

const LINE_TYPES = new Set(["session_meta", "response_item", "turn_context", "event_msg", "compacted"]);

/** Items an assistant turn is made of; the others (user and developer messages, tool outputs) are its inputs. */
const OUTPUT_ITEMS = new Set(["reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "image_generation_call"]);

interface SourceItem {
  item: unknown;
  path: JsonPath;
  at?: string;
  model?: string;
}

/** The items of one model call and what came before it, and the call's reported usage. */
interface Segment {
  items: SourceItem[];
  usage?: ReportedUsage;
  /** A compaction right after this segment. */
  compaction?: { summary?: string; replacement: unknown[]; path: JsonPath; at?: string };
}

export const codexImporter: LinesImporter = {
  format: "codex",
  detectLines(values) {
    return (
      values.some((value) => isRecord(value) && value.type === "response_item") &&
      values.every((value) => isRecord(value) && typeof value.type === "string" && LINE_TYPES.has(value.type) && "payload" in value)
    );
  },
  convertLines(records, context) {
    const scope = context.scope([]);
    const { segments, source, session, skipped, normalised } = gather(records);
    const messages: Message[] = [];
    const facts: (CallFacts | undefined)[] = [];
    const compactions: ImportedCompaction[] = [];
    let sourceStart = 0;
    for (const segment of segments) {
      const read = readMapped(
        scope,
        "openai-responses",
        segment.items.map((entry) => entry.path),
        (conversion) =>
          readResponsesItems(
            segment.items.map((entry) => entry.item),
            conversion,
          ),
        { source: sourceStart, output: messages.length },
      );
      facts.push(...factsOf(read, segment));
      messages.push(...read);
      sourceStart += segment.items.length;
      if (segment.compaction !== undefined) compactions.push(compactionOf(scope, segment.compaction, messages.length));
    }
    nameToolResults(messages);
    if (normalised > 0)
      scope.warn("shape-normalised", `${normalised} message item${normalised === 1 ? "" : "s"} used "text" parts: read as input_text / output_text`);
    for (const compaction of compactions)
      scope.warn("marker", "the session was compacted here: Codex replaced the earlier history with a summary", {
        messageIndex: Math.min(compaction.at, messages.length - 1),
      });
    if (skipped > 0)
      scope.warn("entry-skipped", `skipped ${skipped} event line${skipped === 1 ? "" : "s"} (event_msg), which repeat the items for the terminal`);
    const draft: ConversationDraft = { format: "codex", messages, warnings: scope.warnings, source, facts, session };
    if (compactions.length > 0) draft.compactions = compactions;
    return [draft];
  },
};

function gather(records: readonly JsonlRecord[]) {
  const segments: Segment[] = [{ items: [] }];
  const source: Record<string, unknown> = {};
  const session: SessionFacts = { agent: "codex" };
  let model: string | undefined;
  let skipped = 0;
  let normalised = 0;
  records.forEach((record, index) => {
    const line = record.value as Record<string, unknown>;
    const payload = line.payload;
    const current = segments[segments.length - 1];
    if (line.type === "response_item") {
      const item = withStandardText(payload);
      if (item !== payload) normalised += 1;
      current.items.push({ item, path: [index, "payload"], at: isoTime(line.timestamp), model });
    } else if (line.type === "session_meta" && isRecord(payload)) {
      Object.assign(source, payload);
      noteSession(session, payload);
    } else if (line.type === "turn_context" && isRecord(payload) && typeof payload.model === "string") {
      model = payload.model;
      source.model = payload.model;
    } else if (line.type === "compacted" && isRecord(payload)) {
      current.compaction = {
        summary: typeof payload.message === "string" && payload.message !== "" ? payload.message : undefined,
        replacement: Array.isArray(payload.replacement_history) ? payload.replacement_history : [],
        path: [index, "payload", "replacement_history"],
        at: isoTime(line.timestamp),
      };
      segments.push({ items: [] });
    } else if (isCallUsage(payload) && current.items.some((entry) => isOutput(entry.item))) {
      current.usage = readReportedUsage(payload.info.last_token_usage);
      segments.push({ items: [] });
    } else skipped += 1;
  });
  return { segments: segments.filter((segment) => segment.items.length > 0 || segment.compaction !== undefined), source, session, skipped, normalised };
}

function noteSession(session: SessionFacts, payload: Record<string, unknown>): void {
  if (typeof payload.id === "string") session.sessionId = payload.id;
  if (typeof payload.cwd === "string") session.cwd = payload.cwd;
  if (typeof payload.cli_version === "string") session.agentVersion = payload.cli_version;
  if (isRecord(payload.git) && typeof payload.git.branch === "string") session.gitBranch = payload.git.branch;
}

/** A `token_count` event with the last call's usage (the one Codex writes when a turn starts has none). */
function isCallUsage(payload: unknown): payload is { info: { last_token_usage: Record<string, unknown> } } {
  if (!isRecord(payload) || payload.type !== "token_count" || !isRecord(payload.info) || !isRecord(payload.info.last_token_usage)) return false;
  const usage = payload.info.last_token_usage;
  return (typeof usage.input_tokens === "number" && usage.input_tokens > 0) || (typeof usage.output_tokens === "number" && usage.output_tokens > 0);
}

function isOutput(item: unknown): boolean {
  return isRecord(item) && typeof item.type === "string" && (OUTPUT_ITEMS.has(item.type) || (item.type === "message" && item.role === "assistant"));
}

/**
 * Each message's facts: an assistant message those of the segment's output
 * items (the call's usage on the first one only), an input message those of
 * the input item in the same order.
 */
function factsOf(messages: readonly Message[], segment: Segment): (CallFacts | undefined)[] {
  const outputs = segment.items.filter((entry) => isOutput(entry.item));
  const inputs = segment.items.filter((entry) => !isOutput(entry.item));
  let input = 0;
  let usageGiven = false;
  return messages.map((message) => {
    if (message.role !== "assistant") {
      const entry = inputs[input++];
      return entry?.at === undefined ? undefined : { at: entry.at };
    }
    const first = outputs[0];
    const facts: CallFacts = {};
    if (first?.at !== undefined) facts.at = first.at;
    if (first?.model !== undefined) facts.model = first.model;
    if (!usageGiven && segment.usage !== undefined) facts.usage = segment.usage;
    usageGiven = true;
    return facts;
  });
}

function compactionOf(scope: MessageScope, compaction: NonNullable<Segment["compaction"]>, at: number): ImportedCompaction {
  const paths = compaction.replacement.map((_, index): JsonPath => [...compaction.path, index]);
  const replacement = nameToolResults(readMapped(scope, "openai-responses", paths, (conversion) => readResponsesItems(compaction.replacement, conversion)));
  const result: ImportedCompaction = { at, replacement };
  if (compaction.summary !== undefined) result.summary = compaction.summary;
  if (compaction.at !== undefined) result.facts = { at: compaction.at };
  return result;
}

/** Some rollouts write message parts as `{type: "text"}`; the Responses reader knows them as input_text / output_text. */
function withStandardText(payload: unknown): unknown {
  if (!isRecord(payload) || payload.type !== "message" || !Array.isArray(payload.content)) return payload;
  if (!payload.content.some((part) => isRecord(part) && part.type === "text")) return payload;
  const textType = payload.role === "assistant" ? "output_text" : "input_text";
  return { ...payload, content: payload.content.map((part) => (isRecord(part) && part.type === "text" ? { ...part, type: textType } : part)) };
}
