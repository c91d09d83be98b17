/**
 * The shapes of the Local agents feature, shared by the server (discovery,
 * follow) and the page. Isomorphic: no Node imports here.
 */

/** The agents whose session files are discovered on this machine (LA1). */
export const LOCAL_AGENTS = ["claude-code", "codex", "gemini-cli"] as const;
export type LocalAgent = (typeof LOCAL_AGENTS)[number];

export const LOCAL_AGENT_LABELS: Readonly<Record<LocalAgent, string>> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  "gemini-cli": "Gemini CLI",
};

/** A session file, a Claude Code subagent's file, or a Gemini CLI checkpoint (`/chat save`). */
export type LocalSessionKind = "session" | "subagent" | "checkpoint";

/** Where one agent keeps its files, and what chose that folder. */
export interface AgentRoot {
  agent: LocalAgent;
  /** The agent's folder (`~/.claude`, `~/.codex`, `~/.gemini`), as configured (not resolved). */
  dir: string;
  /** The environment variable that chose `dir`, or "HOME" for the default under the home folder. */
  chosenBy: string;
  /** The variables that override it, strongest first. */
  overrides: readonly string[];
  /** Where the session files are, under `dir`, as a pattern to show people. */
  pattern: string;
}

/** One session file found on this machine, described from its first and last lines only. */
export interface LocalSession {
  agent: LocalAgent;
  kind: LocalSessionKind;
  /** The file's real path (symbolic links resolved): what the API takes back. */
  path: string;
  /** The path under the agent's folder, e.g. `projects/-home-me-app/1f3c….jsonl`. */
  relativePath: string;
  /** The session id the agent gave it (from the file, else its name). */
  sessionId: string;
  /** For a subagent: the session it belongs to. */
  parentSessionId: string | null;
  /** The working folder the agent ran in, or the best the folder names tell. */
  project: string;
  /** ISO time of the first line the agent wrote (else the file's creation). */
  startedAt: string;
  /** ISO time the file was last written. */
  modifiedAt: string;
  model: string | null;
  bytes: number;
  /** Written to in the last LIVE_WINDOW_MS: the agent is probably still running. */
  live: boolean;
}

/** A session in the list, with the conversation it was imported as (if any). */
export interface LocalSessionEntry extends LocalSession {
  conversationId: string | null;
  following: boolean;
}

export interface LocalAgentsList {
  roots: AgentRoot[];
  sessions: LocalSessionEntry[];
}

/** A follow in progress, as the workspace's indicator shows it. */
export interface FollowStatus {
  path: string;
  agent: LocalAgent;
  conversationId: string;
  startedAt: string;
  /** ISO time of the last import that brought something new, or null. */
  lastImportAt: string | null;
  /** The last import's failure, kept until one succeeds. */
  lastError: string | null;
}

/** A file modified this recently is shown as still being written. */
export const LIVE_WINDOW_MS = 60_000;
