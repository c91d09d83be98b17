import "server-only";
import type { ToolDefinition } from "@/lib/context/messages";
import type { SessionFacts } from "@/lib/formats";
import type { Conversation as ConversationRow } from "./generated/sqlite/client";
import type { JsonObject } from "./json";
import { objectProblem, readJsonColumn, toolsProblem } from "./stored-shapes";

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
  /** What the source said of the session (F-SF3); null for conversations made here. */
  origin: ConversationOrigin | null;
  /** "<agent>:<session id>": an import of the same session appends to this conversation. */
  sessionKey: string | null;
  /** A subagent's parent conversation, and the parent's tool call that started it. */
  parentId: string | null;
  parentCallId: string | null;
  createdAt: string;
  updatedAt: string;
  /** What of the stored row could not be read (IN-6), each left empty. Absent on sound rows. */
  damaged?: string[];
}

/** A session's facts, and for a subagent its own id and its parent's session id. */
export interface ConversationOrigin extends SessionFacts {
  subagentId?: string;
  parentSessionId?: string;
}

/** A row as a record; IN-6: a JSON column of the wrong shape reads as empty and is named in `damaged`. */
export function toConversationRecord(row: ConversationRow): ConversationRecord {
  const damaged: string[] = [];
  const record: ConversationRecord = {
    id: row.id,
    title: row.title,
    source: row.source,
    settings: readJsonColumn<JsonObject>("settings", row.settings, objectProblem, {}, damaged),
    tools: readJsonColumn<ToolDefinition[] | null>("tools", row.tools, toolsProblem, null, damaged),
    recordKey: row.recordKey,
    origin: readJsonColumn<ConversationOrigin | null>("origin", row.origin, objectProblem, null, damaged),
    sessionKey: row.sessionKey,
    parentId: row.parentId,
    parentCallId: row.parentCallId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  if (damaged.length > 0) record.damaged = damaged;
  return record;
}
