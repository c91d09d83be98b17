import type { Message, ToolDefinition } from "@/lib/context/messages";
import type { CallFacts, FormatWarningCode, SessionFacts } from "@/lib/formats";

/**
 * Where a conversation came from. `jsonl` is OpenAI chat data one JSON value a
 * line (messages or whole requests); the others name the format of a document
 * or of a file of lines (Claude Code, Codex, OpenAI Batch).
 */
export type ImportFormat =
  | "openai"
  | "jsonl"
  | "anthropic"
  | "tau-bench"
  | "claude-code"
  | "codex"
  | "openai-responses"
  | "ai-sdk-ui"
  | "ai-sdk-model"
  | "langchain"
  | "gemini"
  | "sharegpt"
  | "openai-batch"
  | "litellm"
  | "langfuse"
  | "otel"
  | "openhands"
  | "swe-agent"
  | "mini-swe-agent"
  | "cline"
  | "cline-ui"
  | "gemini-cli"
  | "pydantic-ai"
  | "letta"
  | "openai-agents"
  | "helicone"
  | "mcp";

/** What people call each format: detection names it, refusals say which format the input was read as. */
export const IMPORT_FORMAT_LABELS: Readonly<Record<ImportFormat, string>> = {
  openai: "OpenAI chat messages",
  jsonl: "OpenAI chat JSONL",
  anthropic: "Anthropic Messages",
  "tau-bench": "tau-bench trajectories",
  "claude-code": "Claude Code session (JSONL)",
  codex: "Codex CLI rollout (JSONL)",
  "openai-responses": "OpenAI Responses request",
  "ai-sdk-ui": "AI SDK UIMessage[]",
  "ai-sdk-model": "AI SDK ModelMessage[]",
  langchain: "LangChain messages",
  gemini: "Gemini contents",
  sharegpt: "ShareGPT conversations",
  "openai-batch": "OpenAI Batch JSONL",
  litellm: "LiteLLM log",
  langfuse: "Langfuse trace",
  otel: "OpenTelemetry GenAI spans",
  openhands: "OpenHands trajectory / events",
  "swe-agent": "SWE-agent trajectory (.traj)",
  "mini-swe-agent": "mini-swe-agent trajectory (.traj.json)",
  cline: "Cline task (api_conversation_history.json)",
  "cline-ui": "Cline task UI messages (ui_messages.json)",
  "gemini-cli": "Gemini CLI session, checkpoint or /chat share",
  "pydantic-ai": "Pydantic AI message history",
  letta: "Letta agent file (.af)",
  "openai-agents": "OpenAI Agents SDK items (JS)",
  helicone: "Helicone request rows",
  mcp: "MCP JSON-RPC log",
};

/** Every import format, e.g. for a format picker beside "auto". */
export const IMPORT_FORMATS = Object.keys(IMPORT_FORMAT_LABELS) as readonly ImportFormat[];

/** What kind of lossy or suspicious conversion a warning reports: a wire converter's, or a broken tool pairing. */
export type ImportWarningCode =
  | FormatWarningCode
  /** Tool pairing the engine's history repair changes (`sanitizeHistory`): the message is dropped or loses a call when stored. */
  | "orphan-tool-result"
  | "duplicate-tool-result"
  | "unanswered-tool-call"
  | "empty-assistant-dropped"
  /** A system or user message stood between tool calls and their results: moved after the results. */
  | "interleaved-message-moved"
  /** Lines of a transcript that are not messages (progress, snapshots, UI events): skipped. */
  | "entry-skipped"
  /** Several lines of one streamed message were merged into one message. */
  | "lines-merged"
  /** A marker of the source kept beside the messages: a session summary, a compaction boundary. */
  | "marker"
  /** A subagent's side conversation, imported as a conversation of its own. */
  | "sidechain"
  /** Tool results the source wrote without their call's id were paired with the calls by their order. */
  | "paired-by-position";

/** Something the import changed, dropped or found odd, without refusing the data. */
export interface ImportWarning {
  code: ImportWarningCode;
  message: string;
  /** Index in the imported `messages` (not in the source, which may differ for Anthropic). */
  messageIndex?: number;
  /** Where in the pasted document, e.g. `messages[3].content[1]`. */
  path?: string;
}

/** Which engine wrote an offload marker: Exo / agent-core `[[OFFLOAD: ...]]`, or ours `[[OFFLOADED: ...]]`. */
export type OffloadEngine = "exo" | "context-lab";

/** An offload marker found in a message's content. */
export interface OffloadMarker {
  messageIndex: number;
  handle: string;
  /** The marker text exactly as it appears in the content. */
  marker: string;
  engine: OffloadEngine;
}

/** One conversation recovered from the input, in canonical messages. */
export interface ImportedConversation {
  title: string;
  format: ImportFormat;
  messages: Message[];
  tools?: ToolDefinition[];
  offloadMarkers: OffloadMarker[];
  warnings: ImportWarning[];
  /** What the input said besides messages and tools (a request's `model`, tau-bench's `task_id`, `reward`, `info`). */
  source?: Record<string, unknown>;
  /** Per message (same index as `messages`): its time, model, reported usage and ids, where the source has them (IM-10). */
  facts?: (CallFacts | undefined)[];
  /** The agent, its version, cwd, git branch and session id, where the source has them (IM-10). */
  session?: SessionFacts;
  /** The agent's own compactions, in order (IM-11). */
  compactions?: ImportedCompaction[];
  /** For a subagent's conversation: the call that started it (IM-12). */
  subagentOf?: SubagentLink;
}

/**
 * A compaction the agent made itself: from message `at` on, the model was
 * sent `summary` (and, where the source wrote it, `replacement`) instead of
 * the messages before it.
 */
export interface ImportedCompaction {
  /** Index in `messages` of the first message after the compaction. */
  at: number;
  /** The summary the agent wrote, as the model received it. */
  summary?: string;
  /** What the model received from then on in place of the earlier history (Codex's `replacement_history`). */
  replacement?: Message[];
  /** The prompt's tokens before the compaction, as the agent reported them. */
  tokensBefore?: number;
  /** "manual" (the user asked), "auto" (the window filled), or the source's own word. */
  trigger?: string;
  facts?: CallFacts;
}

/** Which call started a subagent: a tool call (Claude Code's Task) of another conversation of the same import, or of a stored one. */
export interface SubagentLink {
  /** Index of the parent in the import's conversations; absent when the parent was imported before. */
  conversationIndex?: number;
  /** The parent's tool call that started the subagent, when known. */
  toolCallId?: string;
  /** The agent's own id for the subagent (`agent-…`). */
  agentId?: string;
  /** The parent's session id, to find it when it was imported before. */
  parentSessionId?: string;
}

/** Options of `parseConversations`. */
export interface ParseConversationsOptions {
  /** The dropped file's name: titles conversations and names a tau-bench domain. */
  filename?: string;
  /** Inputs over this many UTF-8 bytes are refused; default `DEFAULT_MAX_IMPORT_BYTES`. */
  maxBytes?: number;
  /** Skip detection and read the input as this format. */
  format?: ImportFormat | "auto";
}

/** What `parseConversations` returns: the detected (or forced) format and at least one conversation. */
export interface ImportResult {
  format: ImportFormat;
  conversations: ImportedConversation[];
}
