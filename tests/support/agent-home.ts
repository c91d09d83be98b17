/**
 * A home folder with the session files of Claude Code, Codex and Gemini CLI
 * where each agent keeps them, for the Local agents tests (unit, route and
 * Playwright). Real files: the format fixtures copied into the agents' layouts.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const fixtures = path.resolve(import.meta.dirname, "..", "fixtures", "formats");

/** The Claude Code fixture's session, cwd and project folder (its cwd with `/` as `-`). */
export const CLAUDE_SESSION_ID = "55604662-cf2a-4331-851a-ec234028f8ca";
export const CLAUDE_CWD = "/home/marco/projects/spotter";
export const CLAUDE_PROJECT_FOLDER = "-home-marco-projects-spotter";
export const GEMINI_PROJECT_HASH = "9f2c4e1a7b3d5f60812a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d";

export interface AgentHome {
  home: string;
  claudeDir: string;
  codexDir: string;
  geminiDir: string;
  claudeSession: string;
  claudeSubagent: string;
  codexSession: string;
  geminiSession: string;
  /** Our overrides pointing every agent's folder into this home. */
  env: Record<string, string>;
  cleanup(): void;
}

/** A Gemini CLI session as `ChatRecordingService` writes it (built from its record types; no public sample file). */
export function geminiSessionText(): string {
  return JSON.stringify(
    {
      sessionId: "6d1f0c3e-2b7a-4c59-9e84-0a1b2c3d4e5f",
      projectHash: GEMINI_PROJECT_HASH,
      startTime: "2025-06-30T09:00:00.000Z",
      lastUpdated: "2025-06-30T09:00:05.000Z",
      messages: [
        { id: "m1", timestamp: "2025-06-30T09:00:00.000Z", type: "user", content: "List the files" },
        {
          id: "m2",
          timestamp: "2025-06-30T09:00:05.000Z",
          type: "gemini",
          content: "Here they are.",
          model: "gemini-2.5-pro",
          tokens: { input: 120, output: 8, cached: 0, total: 128 },
        },
      ],
    },
    null,
    2,
  );
}

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** Fills `home` (a new temporary folder unless given) with one session of each agent, a subagent and some files that are not sessions. */
export function createAgentHome(home = fs.mkdtempSync(path.join(os.tmpdir(), "context-lab-agents-"))): AgentHome {
  fs.mkdirSync(home, { recursive: true });
  const claudeDir = path.join(home, ".claude");
  const codexDir = path.join(home, ".codex");
  const geminiDir = path.join(home, ".gemini");
  const claudeText = fs.readFileSync(path.join(fixtures, "claude-code-short.jsonl"), "utf8");
  const project = path.join(claudeDir, "projects", CLAUDE_PROJECT_FOLDER);
  const claudeSession = write(path.join(project, `${CLAUDE_SESSION_ID}.jsonl`), claudeText);
  // A subagent's file: its prompt and first answer, as sidechain lines with the subagent's id.
  const sidechain = claudeText
    .split("\n")
    .filter((line) => line.includes('"type":"user"') || line.includes('"type":"assistant"'))
    .slice(0, 2)
    .map((line) => line.replace('"isSidechain":false', '"isSidechain":true,"agentId":"a1b2c3"'))
    .join("\n");
  const claudeSubagent = write(path.join(project, CLAUDE_SESSION_ID, "subagents", "agent-a1b2c3.jsonl"), `${sidechain}\n`);
  const codexSession = write(
    path.join(codexDir, "sessions", "2025", "01", "01", "rollout-2025-01-01T00-00-00-test-session.jsonl"),
    fs.readFileSync(path.join(fixtures, "codex-rollout-simonw.jsonl"), "utf8"),
  );
  const geminiSession = write(path.join(geminiDir, "tmp", GEMINI_PROJECT_HASH, "chats", "session-2025-06-30T09-00-6d1f0c3e.json"), geminiSessionText());
  // Files that are not sessions: settings, history, a rollout at the wrong depth, Gemini CLI's logs.
  write(path.join(claudeDir, "settings.json"), "{}");
  write(path.join(claudeDir, "projects", CLAUDE_PROJECT_FOLDER, "notes.txt"), "not a session");
  write(path.join(codexDir, "history.jsonl"), "{}\n");
  write(path.join(codexDir, "sessions", "2025", "01", "rollout-misplaced.jsonl"), "{}\n");
  write(path.join(geminiDir, "tmp", GEMINI_PROJECT_HASH, "logs.json"), "[]");
  return {
    home,
    claudeDir,
    codexDir,
    geminiDir,
    claudeSession,
    claudeSubagent,
    codexSession,
    geminiSession,
    env: { CONTEXT_LAB_CLAUDE_DIR: claudeDir, CONTEXT_LAB_CODEX_DIR: codexDir, CONTEXT_LAB_GEMINI_DIR: geminiDir },
    cleanup: () => fs.rmSync(home, { recursive: true, force: true }),
  };
}

export interface ClaudeTurnOptions {
  role: "user" | "assistant";
  text: string;
  parentUuid: string | null;
  /** Default: now. */
  at?: Date;
}

/** One line of a Claude Code session (a user prompt or an assistant's text answer) with a new uuid; returns the line and its uuid. */
export function claudeTurn(options: ClaudeTurnOptions): { line: string; uuid: string } {
  const uuid = randomUUID();
  const common = {
    parentUuid: options.parentUuid,
    isSidechain: false,
    userType: "external",
    cwd: CLAUDE_CWD,
    sessionId: CLAUDE_SESSION_ID,
    version: "2.1.38",
    gitBranch: "master",
    uuid,
    timestamp: (options.at ?? new Date()).toISOString(),
  };
  const line =
    options.role === "user"
      ? { ...common, type: "user", message: { role: "user", content: options.text } }
      : {
          ...common,
          type: "assistant",
          requestId: `req_${uuid.replace(/-/g, "").slice(0, 24)}`,
          message: {
            model: "claude-opus-4-6",
            id: `msg_${uuid.replace(/-/g, "").slice(0, 24)}`,
            type: "message",
            role: "assistant",
            content: [{ type: "text", text: options.text }],
            stop_reason: "end_turn",
            stop_sequence: null,
            usage: { input_tokens: 12, output_tokens: 7 },
          },
        };
  return { line: `${JSON.stringify(line)}\n`, uuid };
}

/** The uuid of a Claude Code session file's last line that has one: where new lines chain on. */
export function lastUuidOf(file: string): string | null {
  const lines = fs.readFileSync(file, "utf8").trim().split("\n").reverse();
  for (const line of lines) {
    const uuid = (JSON.parse(line) as { uuid?: unknown }).uuid;
    if (typeof uuid === "string") return uuid;
  }
  return null;
}
