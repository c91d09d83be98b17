/**
 * OpenAI Responses: a request `{input, instructions?, tools?, ...}` or a bare
 * `input` array of items, read by lib/formats' Responses reader.
 */
import { readResponsesItems } from "@/lib/formats";
import { isRecord } from "../issues";
import type { DocumentImporter } from "../registry";
import { readRequestInScope, readWithScope } from "../requests";

/** Item types only Responses has (a `message` item alone could be any chat message). */
const ITEM_TYPES = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "computer_call",
  "computer_call_output",
  "local_shell_call",
  "local_shell_call_output",
  "web_search_call",
  "file_search_call",
  "code_interpreter_call",
  "image_generation_call",
  "mcp_call",
  "item_reference",
]);
const PART_TYPES = new Set(["input_text", "output_text", "input_image", "input_file", "input_audio"]);

function isItem(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if (typeof value.type === "string" && ITEM_TYPES.has(value.type)) return true;
  return Array.isArray(value.content) && value.content.some((part) => isRecord(part) && typeof part.type === "string" && PART_TYPES.has(part.type));
}

export const responsesImporter: DocumentImporter = {
  format: "openai-responses",
  detect(value) {
    if (Array.isArray(value)) return value.length > 0 && value.some(isItem) && value.every((item) => isRecord(item) && ("type" in item || "role" in item));
    return isRecord(value) && !("messages" in value) && (Array.isArray(value.input) || (typeof value.input === "string" && "model" in value));
  },
  convert(value, place, context) {
    const scope = context.scope(Array.isArray(value) ? place.path : [...place.path, "input"], place.conversationIndex);
    if (Array.isArray(value)) {
      const messages = readWithScope(scope, "openai-responses", place.path, (conversion) => readResponsesItems(value, conversion));
      return [{ format: "openai-responses", messages, warnings: scope.warnings }];
    }
    const read = readRequestInScope(scope, "openai-responses", value, place.path);
    if (read === undefined) return [{ format: "openai-responses", messages: [], warnings: scope.warnings }];
    return [{ format: "openai-responses", messages: read.messages, tools: read.tools, warnings: scope.warnings, source: read.rest }];
  },
};
