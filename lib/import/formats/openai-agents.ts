/**
 * OpenAI Agents SDK for JavaScript: `result.history` (the input items plus the
 * run's new items, what the Python SDK's `result.to_input_list()` is), saved
 * as JSON. Its items are the SDK's protocol items (`@openai/agents-core`
 * protocol.ts): Responses items spelled in camelCase (`callId`), with
 * `function_call_result`, `hosted_tool_call` and `providerData`. They are
 * rewritten as Responses items and read by the Responses reader. The Python
 * SDK's list is plain Responses items, read by `responses.ts`.
 */
import { ConversionContext, readResponsesItems } from "@/lib/formats";
import { isRecord, type JsonPath } from "../issues";
import type { DocumentImporter } from "../registry";
import { readMapped, type ConversationDraft } from "../requests";
import type { ImportedCompaction } from "../types";
import { responsesItemOf } from "./openai-agents-items";

/** Item types only the SDK's protocol has; a Responses item list has none of them. */
const PROTOCOL_TYPES = new Set(["function_call_result", "computer_call_result", "hosted_tool_call", "unknown"]);

/** Items that are a call or its result, paired by `callId`. */
const CALL_TYPES = new Set([
  "function_call",
  "function_call_result",
  "computer_call",
  "computer_call_result",
  "shell_call",
  "shell_call_output",
  "apply_patch_call",
  "apply_patch_call_output",
]);

function isProtocolItem(item: Record<string, unknown>): boolean {
  if (typeof item.callId === "string" || isRecord(item.providerData)) return true;
  if (typeof item.type === "string" && PROTOCOL_TYPES.has(item.type)) return true;
  if (item.type === "reasoning" && Array.isArray(item.content) && !Array.isArray(item.summary)) return true;
  // User content: the protocol's input_image holds `image`, its input_file `file` (Responses: image_url, file_id, ...).
  return (
    Array.isArray(item.content) &&
    item.content.some((part) => isRecord(part) && ((part.type === "input_image" && "image" in part) || (part.type === "input_file" && "file" in part)))
  );
}

export const openaiAgentsImporter: DocumentImporter = {
  format: "openai-agents",
  detect(value) {
    return (
      Array.isArray(value) &&
      value.length > 0 &&
      value.every((item) => isRecord(item) && ("type" in item || "role" in item)) &&
      value.some((item) => isRecord(item) && isProtocolItem(item))
    );
  },
  convert(value, place, context) {
    const raw = value as Record<string, unknown>[];
    const scope = context.scope(place.path, place.conversationIndex);
    const note = (code: Parameters<typeof scope.warn>[0], message: string, path: JsonPath) => scope.warn(code, message, { path });
    const kept = raw.flatMap((item, index) => {
      if (typeof item.type !== "string" || !CALL_TYPES.has(item.type) || typeof item.callId === "string" || typeof item.call_id === "string") return [index];
      scope.fail(index, ["callId"], `a ${item.type} item needs the string callId of its call`);
      return [];
    });
    const items = kept.map((index) => responsesItemOf(raw[index], scope.pathOf(index), note));
    const sources = kept.map((index) => scope.pathOf(index));
    const messages = readMapped(scope, "openai-responses", sources, (conversion) => readResponsesItems(items, conversion));
    const compactions: ImportedCompaction[] = [];
    items.forEach((item, index) => {
      if (item.type !== "compaction") return;
      // Where the compaction lands: the messages the items before it make.
      const at = readResponsesItems(items.slice(0, index), new ConversionContext("openai-responses")).length;
      compactions.push({ at });
      scope.warn("marker", "OpenAI compacted the conversation here: the items before it were replaced by its encrypted compaction", {
        messageIndex: Math.min(at, messages.length - 1),
        path: sources[index],
      });
    });
    const draft: ConversationDraft = { format: "openai-agents", messages, warnings: scope.warnings };
    if (compactions.length > 0) draft.compactions = compactions;
    return [draft];
  },
};
