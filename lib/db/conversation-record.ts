import "server-only";
import type { ToolDefinition } from "@/lib/context/messages";
import type { Conversation as ConversationRow } from "./generated/sqlite/client";
import { fromJsonText, fromNullableJsonText, type JsonObject } from "./json";

/** A conversation as route handlers return it. */
export interface ConversationRecord {
  id: string;
  title: string;
  /** "import:openai" | "import:anthropic" | "import:tau-bench" | "proxy" | "recorder" | ... */
  source: string;
  /** Engine mode, thresholds, model, budget, `applyPipeline` for the proxy. */
  settings: JsonObject;
  /** OpenAI tool definitions the conversation's agent offers. */
  tools: ToolDefinition[] | null;
  /** The proxy finds its conversation by this key. */
  recordKey: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toConversationRecord(row: ConversationRow): ConversationRecord {
  return {
    id: row.id,
    title: row.title,
    source: row.source,
    settings: fromJsonText<JsonObject>(row.settings),
    tools: fromNullableJsonText<ToolDefinition[]>(row.tools),
    recordKey: row.recordKey,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
