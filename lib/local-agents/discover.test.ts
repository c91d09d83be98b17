import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLAUDE_CWD, CLAUDE_SESSION_ID, GEMINI_PROJECT_HASH, createAgentHome, type AgentHome } from "@/tests/support/agent-home";
import { decodeClaudeProject, discoverSessions } from "./discover";
import { EDGE_BYTES, readEdges } from "./edges";
import { agentRootsOf } from "./roots";

let home: AgentHome;
beforeEach(() => {
  home = createAgentHome();
});
afterEach(() => home.cleanup());

const real = (file: string) => fs.realpathSync(file);

describe("discoverSessions", () => {
  it("[LA1] lists each agent's sessions where the agent keeps them, with project, model, start and size", async () => {
    const sessions = await discoverSessions(agentRootsOf({ HOME: home.home }));
    const byPath = new Map(sessions.map((session) => [session.path, session]));
    expect([...byPath.keys()].sort()).toEqual([home.claudeSession, home.claudeSubagent, home.codexSession, home.geminiSession].map(real).sort());

    expect(byPath.get(real(home.claudeSession))).toMatchObject({
      agent: "claude-code",
      kind: "session",
      sessionId: CLAUDE_SESSION_ID,
      project: CLAUDE_CWD,
      model: "claude-opus-4-6",
      startedAt: "2026-02-10T21:11:52.438Z",
      bytes: fs.statSync(home.claudeSession).size,
      relativePath: `projects/-home-marco-projects-spotter/${CLAUDE_SESSION_ID}.jsonl`,
    });
    expect(byPath.get(real(home.claudeSubagent))).toMatchObject({ agent: "claude-code", kind: "subagent", parentSessionId: CLAUDE_SESSION_ID });
    expect(byPath.get(real(home.codexSession))).toMatchObject({
      agent: "codex",
      sessionId: "test-session",
      project: "/project",
      startedAt: "2025-01-01T00:00:00.000Z",
    });
    expect(byPath.get(real(home.geminiSession))).toMatchObject({
      agent: "gemini-cli",
      sessionId: "6d1f0c3e-2b7a-4c59-9e84-0a1b2c3d4e5f",
      project: GEMINI_PROJECT_HASH,
      model: "gemini-2.5-pro",
      startedAt: "2025-06-30T09:00:00.000Z",
    });
  });

  it("[LA1] lists nothing that is not a session: settings, history, notes, a rollout at the wrong depth, logs", async () => {
    const sessions = await discoverSessions(agentRootsOf({ HOME: home.home }));
    const names = sessions.map((session) => path.basename(session.path));
    for (const name of ["settings.json", "notes.txt", "history.jsonl", "rollout-misplaced.jsonl", "logs.json"]) expect(names).not.toContain(name);
  });

  it("[LA1] marks a file written in the last minute as live, an older one not", async () => {
    const old = new Date(Date.now() - 5 * 60_000);
    fs.utimesSync(home.codexSession, old, old);
    const sessions = await discoverSessions(agentRootsOf({ HOME: home.home }));
    const live = (file: string) => sessions.find((session) => session.path === real(file))?.live;
    expect(live(home.claudeSession)).toBe(true);
    expect(live(home.codexSession)).toBe(false);
  });

  it("[LA1] finds nothing, without failing, when the agents' folders do not exist", async () => {
    expect(await discoverSessions(agentRootsOf({ HOME: path.join(home.home, "nobody") }))).toEqual([]);
  });

  it("[LA1] reads only the ends of a big file, and takes the model from its last lines", async () => {
    const head = fs.readFileSync(home.claudeSession, "utf8");
    const filler = `${JSON.stringify({ type: "progress", sessionId: CLAUDE_SESSION_ID, data: "x".repeat(1000), model: "middle" })}\n`.repeat(400);
    const last = JSON.stringify({ type: "assistant", sessionId: CLAUDE_SESSION_ID, message: { role: "assistant", model: "claude-sonnet-4-5", content: [] } });
    fs.writeFileSync(home.claudeSession, `${head}${filler}${last}\n`);
    const size = fs.statSync(home.claudeSession).size;
    expect(size).toBeGreaterThan(EDGE_BYTES * 4);
    const edges = await readEdges(home.claudeSession, size);
    expect(edges.headText.length + edges.tailText.length).toBeLessThanOrEqual(EDGE_BYTES * 2);
    const [session] = (await discoverSessions(agentRootsOf({ HOME: home.home }))).filter((found) => found.path === real(home.claudeSession));
    expect(session.model).toBe("claude-sonnet-4-5");
    expect(session.project).toBe(CLAUDE_CWD);
  });

  it("[LA3] does not follow a link that leads out of the agent's folder, and lists a file linked twice once", async () => {
    const outside = path.join(home.home, "elsewhere", "secret.jsonl");
    fs.mkdirSync(path.dirname(outside), { recursive: true });
    fs.copyFileSync(home.claudeSession, outside);
    const project = path.dirname(home.claudeSession);
    fs.symlinkSync(outside, path.join(project, "escape.jsonl"));
    fs.symlinkSync(path.dirname(outside), path.join(home.claudeDir, "projects", "linked-project"));
    fs.symlinkSync(home.claudeSession, path.join(project, "again.jsonl"));
    const sessions = await discoverSessions(agentRootsOf({ HOME: home.home }));
    const paths = sessions.map((session) => session.path);
    expect(paths.filter((found) => found.includes("elsewhere"))).toEqual([]);
    expect(paths.filter((found) => found === real(home.claudeSession))).toHaveLength(1);
  });
});

describe("decodeClaudeProject", () => {
  it("[LA1] turns Claude Code's project folder name back into the cwd it was named after", () => {
    expect(decodeClaudeProject("-home-marco-projects-spotter")).toBe("/home/marco/projects/spotter");
  });
});
