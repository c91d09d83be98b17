/**
 * Codex CLI rollout JSONL (`~/.codex/sessions/.../rollout-*.jsonl`): lines
 * `{timestamp, type, payload}`. `response_item` payloads are OpenAI Responses
 * items and are read as such; `session_meta` and `turn_context` describe the
 * session (kept as `source`); `compacted` lines are markers; `event_msg` lines
 * repeat what the items hold, for the terminal, and are skipped.
 */
import { readResponsesItems } from "@/lib/formats";
import { isRecord, type JsonPath } from "../issues";
import type { LinesImporter } from "../registry";
import { readMapped, type ConversationDraft } from "../requests";

const LINE_TYPES = new Set(["session_meta", "response_item", "turn_context", "event_msg", "compacted"]);

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
    const items: unknown[] = [];
    const sources: JsonPath[] = [];
    const source: Record<string, unknown> = {};
    const markers: { at: number; path: JsonPath }[] = [];
    let skipped = 0;
    let normalised = 0;
    records.forEach((record, index) => {
      const line = record.value as Record<string, unknown>;
      const payload = line.payload;
      if (line.type === "response_item") {
        const item = withStandardText(payload);
        if (item !== payload) normalised += 1;
        items.push(item);
        sources.push([index, "payload"]);
      } else if (line.type === "session_meta" && isRecord(payload)) Object.assign(source, payload);
      else if (line.type === "turn_context" && isRecord(payload) && typeof payload.model === "string") source.model = payload.model;
      else if (line.type === "compacted") markers.push({ at: items.length, path: [index] });
      else skipped += 1;
    });
    const messages = readMapped(scope, "openai-responses", sources, (conversion) => readResponsesItems(items, conversion));
    if (normalised > 0)
      scope.warn("shape-normalised", `${normalised} message item${normalised === 1 ? "" : "s"} used "text" parts: read as input_text / output_text`);
    for (const marker of markers)
      scope.warn("marker", "the session was compacted here: Codex replaced the earlier history with a summary", {
        messageIndex: Math.min(marker.at, messages.length - 1),
        path: marker.path,
      });
    if (skipped > 0)
      scope.warn("entry-skipped", `skipped ${skipped} event line${skipped === 1 ? "" : "s"} (event_msg), which repeat the items for the terminal`);
    const draft: ConversationDraft = { format: "codex", messages, warnings: scope.warnings, source };
    return [draft];
  },
};

/** Some rollouts write message parts as `{type: "text"}`; the Responses reader knows them as input_text / output_text. */
function withStandardText(payload: unknown): unknown {
  if (!isRecord(payload) || payload.type !== "message" || !Array.isArray(payload.content)) return payload;
  if (!payload.content.some((part) => isRecord(part) && part.type === "text")) return payload;
  const textType = payload.role === "assistant" ? "output_text" : "input_text";
  return { ...payload, content: payload.content.map((part) => (isRecord(part) && part.type === "text" ? { ...part, type: textType } : part)) };
}
