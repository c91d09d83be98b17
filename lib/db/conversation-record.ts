import "server-only";
import type { ToolDefinition } from "@/lib/context/messages";
import type { SessionFacts } from "@/lib/formats";
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
  /** What the source said of the session (SF3); null for conversations made here. */
  origin: ConversationOrigin | null;
  /** "<agent>:<session id>": an import of the same session appends to this conversation. */
  sessionKey: string | null;
  /** A subagent's parent conversation, and the parent's tool call that started it. */
  parentId: string | null;
  parentCallId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A session's facts, and for a subagent its own id and its parent's session id. */
export interface ConversationOrigin extends SessionFacts {
  subagentId?: string;
  parentSessionId?: string;
}

export function toConversationRecord(row: ConversationRow): ConversationRecord {
  return {
    id: row.id,
    title: row.title,
    source: row.source,
    settings: fromJsonText<JsonObject>(row.settings),
    tools: fromNullableJsonText<ToolDefinition[]>(row.tools),
    recordKey: row.recordKey,
    origin: fromNullableJsonText<ConversationOrigin>(row.origin),
    sessionKey: row.sessionKey,
    parentId: row.parentId,
    parentCallId: row.parentCallId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
