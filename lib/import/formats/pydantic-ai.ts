/**
 * Pydantic AI message history, as `ModelMessagesTypeAdapter.dump_json(result.all_messages())`
 * (or `result.all_messages_json()`) writes it: an array of ModelRequest
 * (`kind: "request"`) and ModelResponse (`kind: "response"`), each with typed
 * `parts`. Read through Anthropic blocks; each response keeps its time, model,
 * usage, response id and finish reason, each request part its time.
 */
import type { CallFacts } from "@/lib/formats";
import { isRecord, pathNotes } from "../issues";
import type { DocumentImporter } from "../registry";
import type { ConversationDraft } from "../requests";
import type { ImportedCompaction } from "../types";
import { readAnthropicWire } from "./anthropic-wire";
import { type History, readRequest, readResponse, restoreCallFields } from "./pydantic-ai-read";

type Raw = Record<string, unknown>;

function isModelMessage(value: unknown): value is Raw & { parts: unknown[] } {
  return isRecord(value) && (value.kind === "request" || value.kind === "response") && Array.isArray(value.parts);
}

export const pydanticAiImporter: DocumentImporter = {
  format: "pydantic-ai",
  detect(value) {
    return Array.isArray(value) && value.length > 0 && value.every(isModelMessage);
  },
  convert(value, place, context) {
    const raw = value as (Raw & { parts: unknown[] })[];
    const scope = context.scope(place.path, place.conversationIndex);
    const notes = pathNotes(scope);
    const history: History = { wire: [], facts: [], argumentTexts: new Map(), reasoning: new Map(), compactions: [], skipped: 0, notes };
    raw.forEach((message, index) => {
      const path = scope.pathOf(index);
      if (message.kind === "request") readRequest(message, path, history);
      else readResponse(message, path, history);
    });
    const { messages, starts } = readAnthropicWire(scope, history.wire);
    restoreCallFields(messages, starts, history);
    const at = (wire: number) => (wire < starts.length ? starts[wire] : messages.length);
    const facts: (CallFacts | undefined)[] = messages.map(() => undefined);
    history.facts.forEach((callFacts, wire) => {
      if (callFacts !== undefined && at(wire) < at(wire + 1)) facts[at(wire)] = callFacts;
    });
    if (history.skipped > 0)
      scope.warn(
        "entry-skipped",
        `skipped ${history.skipped} tool-availability part${history.skipped === 1 ? "" : "s"}: they list tools, not content the model read`,
      );
    const compactions: ImportedCompaction[] = history.compactions.map((compaction) => {
      scope.warn("marker", "the provider compacted the conversation here: the messages before it were replaced by its compaction", {
        messageIndex: at(compaction.wire),
      });
      return compaction.summary === undefined ? { at: at(compaction.wire) } : { at: at(compaction.wire), summary: compaction.summary };
    });
    const draft: ConversationDraft = { format: "pydantic-ai", messages, warnings: scope.warnings, facts, session: { agent: "pydantic-ai" } };
    const conversationId = raw.map((message) => message.conversation_id).find((id) => typeof id === "string");
    if (typeof conversationId === "string") draft.session = { agent: "pydantic-ai", sessionId: conversationId };
    const runIds = [...new Set(raw.map((message) => message.run_id).filter((id): id is string => typeof id === "string"))];
    if (runIds.length > 0) draft.source = { runIds };
    if (compactions.length > 0) draft.compactions = compactions;
    return [draft];
  },
};
