/**
 * OpenAI Batch input JSONL: `{custom_id, method, url, body}` a line, each
 * body a Chat Completions or Responses request: one conversation a line,
 * titled by its `custom_id`.
 */
import { isRecord } from "../issues";
import type { DocumentImporter } from "../registry";
import { convertRequest, readRequestInScope, type ConversationDraft } from "../requests";

export const openaiBatchImporter: DocumentImporter = {
  format: "openai-batch",
  detect(value) {
    return isRecord(value) && typeof value.custom_id === "string" && isRecord(value.body);
  },
  convert(value, place, context) {
    const line = value as Record<string, unknown> & { body: Record<string, unknown> };
    const bodyPath = [...place.path, "body"];
    const title = line.custom_id as string;
    const source = { custom_id: line.custom_id, url: line.url };
    if (typeof line.url === "string" && line.url.includes("/responses")) {
      const scope = context.scope([...bodyPath, "input"], place.conversationIndex);
      const read = readRequestInScope(scope, "openai-responses", line.body, bodyPath);
      const draft: ConversationDraft = {
        format: "openai-batch",
        messages: read?.messages ?? [],
        warnings: scope.warnings,
        title,
        source: { ...read?.rest, ...source },
      };
      if (read?.tools !== undefined) draft.tools = read.tools;
      return [draft];
    }
    const draft = convertRequest(line.body, "openai", bodyPath, (prefix) => context.scope(prefix, place.conversationIndex));
    return [{ format: "openai-batch", ...draft, title, source: { ...draft.source, ...source } }];
  },
};
