import { describe, expect, it } from "vitest";
import { agentEnvironment, callerUpstreams, labelKey, upstreamVariables } from "./agent-environment";
import { cleanLabel, labelFromCommand } from "./label";
import { belongsToLabel } from "./live";

const APP = "http://127.0.0.1:3000";

describe("record's agent environment", () => {
  it("[PK-7] the label is the program the command runs, past its runner, without folder or extension", () => {
    expect(labelFromCommand(["node", "agent.mjs"])).toBe("agent");
    expect(labelFromCommand(["node", "--import", "tsx", "./src/support-bot.ts"])).toBe("support-bot");
    expect(labelFromCommand(["claude", "-p", "fix the tests"])).toBe("claude");
    expect(labelFromCommand(["uv", "run", "python", "-m", "aider"])).toBe("aider");
    expect(labelFromCommand(["npx", "@openai/codex", "exec", "hi"])).toBe("codex");
    expect(labelFromCommand(["env", "DEBUG=1", "/usr/local/bin/my agent"])).toBe("my-agent");
    expect(labelFromCommand(["node"])).toBe("agent");
    expect(cleanLabel("  café bot/β  ")).toBe("caf-bot");
  });

  it("[PK-7] points every OpenAI and Anthropic setting at the proxy under the label, the access token in the key when set", () => {
    const env = { PATH: "/bin", OPENAI_API_KEY: "sk-real", ANTHROPIC_API_KEY: "sk-ant-real", OPENAI_ORG_ID: "org-1" };
    expect(agentEnvironment(env, APP, labelKey("bot", undefined))).toEqual({
      PATH: "/bin",
      OPENAI_ORG_ID: "org-1",
      OPENAI_BASE_URL: `${APP}/api/v1`,
      OPENAI_API_BASE: `${APP}/api/v1`,
      OPENAI_API_KEY: "ctxlab-bot",
      ANTHROPIC_BASE_URL: `${APP}/api`,
      ANTHROPIC_API_KEY: "ctxlab-bot",
    });
    const withToken = agentEnvironment({ ANTHROPIC_AUTH_TOKEN: "oauth-real" }, APP, labelKey("bot", " t0ken-t0ken-t0ken "));
    expect(withToken).toMatchObject({ OPENAI_API_KEY: "ctxlab-bot~t0ken-t0ken-t0ken", ANTHROPIC_AUTH_TOKEN: "ctxlab-bot~t0ken-t0ken-t0ken" });
  });

  it("[PK-9] the caller's real keys and base URLs become the upstream, unless CONTEXT_LAB_* set them or they point at the app", () => {
    const upstreams = callerUpstreams(
      { OPENAI_API_KEY: "sk-real", ANTHROPIC_API_KEY: "sk-ant-real", ANTHROPIC_BASE_URL: "https://gateway.example/anthropic" },
      APP,
    );
    expect(upstreams).toEqual({
      openai: { baseUrl: "https://api.openai.com/v1", apiKey: "sk-real" },
      anthropic: { baseUrl: "https://gateway.example/anthropic", apiKey: "sk-ant-real" },
    });
    expect(upstreamVariables(upstreams, { CONTEXT_LAB_UPSTREAM_API_KEY: "sk-chosen" })).toEqual({
      CONTEXT_LAB_UPSTREAM_BASE_URL: "https://api.openai.com/v1",
      CONTEXT_LAB_ANTHROPIC_BASE_URL: "https://gateway.example/anthropic",
      CONTEXT_LAB_ANTHROPIC_API_KEY: "sk-ant-real",
    });
    // A local model server needs no key; a label key or the app itself is no upstream.
    expect(callerUpstreams({ OPENAI_BASE_URL: "http://localhost:11434/v1" }, APP).openai).toEqual({ baseUrl: "http://localhost:11434/v1", apiKey: null });
    expect(callerUpstreams({ OPENAI_BASE_URL: `${APP}/api/v1`, OPENAI_API_KEY: "ctxlab-other" }, APP)).toEqual({ openai: null, anthropic: null });
  });

  it("[PK-10] the label's conversations: its key, another system prompt's (#) and a session's (/)", () => {
    expect(["bot", "bot#1a2b3c4d", "bot/run-7", "bot2", "robot", null].map((key) => belongsToLabel(key, "bot"))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
