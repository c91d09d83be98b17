import type { LocalAgent, LocalSessionKind } from "./types";

/** What a file under an agent's folder is, from its path there alone (LA1, LA3). */
export interface SessionPlace {
  kind: LocalSessionKind;
  /** The project folder's name as the agent wrote it (Claude Code's encoded cwd, Gemini CLI's project hash). */
  projectFolder: string | null;
  /** A session id the path carries (Claude Code's file and folder names), or null. */
  sessionId: string | null;
  parentSessionId: string | null;
}

const JSONL = /\.jsonl$/;
const SEGMENT = /^[^/\\]+$/;

function claudeCodePlace(segments: readonly string[]): SessionPlace | null {
  if (segments[0] !== "projects") return null;
  if (segments.length === 3 && JSONL.test(segments[2])) {
    return { kind: "session", projectFolder: segments[1], sessionId: segments[2].replace(JSONL, ""), parentSessionId: null };
  }
  if (segments.length === 5 && segments[3] === "subagents" && /^agent-.+\.jsonl$/.test(segments[4])) {
    return { kind: "subagent", projectFolder: segments[1], sessionId: null, parentSessionId: segments[2] };
  }
  return null;
}

function codexPlace(segments: readonly string[]): SessionPlace | null {
  const [top, year, month, day, name] = segments;
  if (segments.length !== 5 || top !== "sessions") return null;
  if (!/^\d{4}$/.test(year) || !/^\d{2}$/.test(month) || !/^\d{2}$/.test(day) || !/^rollout-.+\.jsonl$/.test(name)) return null;
  return { kind: "session", projectFolder: null, sessionId: null, parentSessionId: null };
}

function geminiPlace(segments: readonly string[]): SessionPlace | null {
  if (segments[0] !== "tmp") return null;
  if (segments.length === 4 && segments[2] === "chats" && /^session-.+\.jsonl?$/.test(segments[3])) {
    return { kind: "session", projectFolder: segments[1], sessionId: null, parentSessionId: null };
  }
  if (segments.length === 3 && /^checkpoint-.+\.json$/.test(segments[2])) {
    return { kind: "checkpoint", projectFolder: segments[1], sessionId: null, parentSessionId: null };
  }
  return null;
}

const PLACES: Readonly<Record<LocalAgent, (segments: readonly string[]) => SessionPlace | null>> = {
  "claude-code": claudeCodePlace,
  codex: codexPlace,
  "gemini-cli": geminiPlace,
};

/**
 * Whether a path under an agent's folder (`/`-separated, relative) is one of
 * its session files, and what kind. Discovery lists only such files and the
 * API accepts only such files (LA3), so both go through this one test.
 */
export function sessionPlaceOf(agent: LocalAgent, relativePath: string): SessionPlace | null {
  const segments = relativePath.split("/");
  if (segments.some((segment) => !SEGMENT.test(segment) || segment === "." || segment === "..")) return null;
  return PLACES[agent](segments);
}

/** The folders discovery walks under each agent's folder, as path patterns (`*` any one name). */
export const WALKS: Readonly<Record<LocalAgent, readonly string[]>> = {
  "claude-code": ["projects/*/*", "projects/*/*/subagents/*"],
  codex: ["sessions/*/*/*/*"],
  "gemini-cli": ["tmp/*/chats/*", "tmp/*/*"],
};
