import path from "node:path";
import { describe, expect, it } from "vitest";
import { isLoopbackHost, localAgentsAccessOf } from "./access";
import { agentRootsOf } from "./roots";

const dirs = (env: Record<string, string>) => Object.fromEntries(agentRootsOf(env).map((root) => [root.agent, [root.dir, root.chosenBy]]));

describe("agentRootsOf", () => {
  it("[LA1] looks in ~/.claude, ~/.codex and ~/.gemini by default", () => {
    expect(dirs({ HOME: "/home/me" })).toEqual({
      "claude-code": ["/home/me/.claude", "HOME"],
      codex: ["/home/me/.codex", "HOME"],
      "gemini-cli": ["/home/me/.gemini", "HOME"],
    });
  });

  it("[LA1] honours the agents' own variables: CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME (a home with .gemini in it)", () => {
    expect(dirs({ HOME: "/home/me", CLAUDE_CONFIG_DIR: "/cfg/claude", CODEX_HOME: "/cfg/codex", GEMINI_CLI_HOME: "/cfg/gemini-home" })).toEqual({
      "claude-code": ["/cfg/claude", "CLAUDE_CONFIG_DIR"],
      codex: ["/cfg/codex", "CODEX_HOME"],
      "gemini-cli": [path.join("/cfg/gemini-home", ".gemini"), "GEMINI_CLI_HOME"],
    });
  });

  it("[LA1] lets our own variables win over the agents'", () => {
    const env = {
      HOME: "/home/me",
      CLAUDE_CONFIG_DIR: "/cfg/claude",
      CONTEXT_LAB_CLAUDE_DIR: "/lab/claude",
      CONTEXT_LAB_CODEX_DIR: "/lab/codex",
      CONTEXT_LAB_GEMINI_DIR: "/lab/gemini",
      GEMINI_CLI_HOME: "/x",
    };
    expect(dirs(env)).toEqual({
      "claude-code": ["/lab/claude", "CONTEXT_LAB_CLAUDE_DIR"],
      codex: ["/lab/codex", "CONTEXT_LAB_CODEX_DIR"],
      "gemini-cli": ["/lab/gemini", "CONTEXT_LAB_GEMINI_DIR"],
    });
  });
});

describe("localAgentsAccessOf", () => {
  it("[LA2] is on when the server listens on loopback only", () => {
    for (const host of ["127.0.0.1", "127.0.1.1", "localhost", "::1", "[::1]"]) {
      expect(isLoopbackHost(host)).toBe(true);
      expect(localAgentsAccessOf({ HOST: host })).toMatchObject({ enabled: true, reason: "loopback" });
    }
  });

  it("[LA2] is off, saying why, when the server listens on an address other machines reach, or on an unknown one", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "lab.example.com", "127.0.0.1.example.com"]) {
      const access = localAgentsAccessOf({ HOST: host });
      expect(access).toMatchObject({ enabled: false, reason: "not-loopback" });
      expect(access.message).toContain(host);
      expect(access.message).toContain("CONTEXT_LAB_LOCAL_AGENTS=1");
    }
    expect(localAgentsAccessOf({})).toMatchObject({ enabled: false, reason: "host-unknown" });
  });

  it("[LA2] CONTEXT_LAB_LOCAL_AGENTS=1 switches it on anywhere, =0 off everywhere", () => {
    expect(localAgentsAccessOf({ HOST: "0.0.0.0", CONTEXT_LAB_LOCAL_AGENTS: "1" })).toMatchObject({ enabled: true, reason: "switched-on" });
    expect(localAgentsAccessOf({ CONTEXT_LAB_LOCAL_AGENTS: "1" })).toMatchObject({ enabled: true });
    expect(localAgentsAccessOf({ HOST: "127.0.0.1", CONTEXT_LAB_LOCAL_AGENTS: "0" })).toMatchObject({ enabled: false, reason: "switched-off" });
  });
});
