import os from "node:os";
import path from "node:path";
import type { AgentRoot, LocalAgent } from "./types";

type Environment = Record<string, string | undefined>;

function homeOf(env: Environment): string {
  const home = env.HOME?.trim();
  return home ? home : os.homedir();
}

function firstSet(env: Environment, names: readonly string[]): { name: string; value: string } | null {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return null;
}

interface RootRule {
  agent: LocalAgent;
  /** Variables naming the agent's folder itself, strongest first. */
  folderVariables: readonly string[];
  /** A variable naming a home folder the agent's folder sits in (Gemini CLI's `GEMINI_CLI_HOME`). */
  homeVariable?: string;
  folderName: string;
  pattern: string;
}

// LA1: our own override first, then the agent's own variable, then the home folder.
const RULES: readonly RootRule[] = [
  {
    agent: "claude-code",
    folderVariables: ["CONTEXT_LAB_CLAUDE_DIR", "CLAUDE_CONFIG_DIR"],
    folderName: ".claude",
    pattern: "projects/<project>/<session>.jsonl and projects/<project>/<session>/subagents/agent-*.jsonl",
  },
  {
    agent: "codex",
    folderVariables: ["CONTEXT_LAB_CODEX_DIR", "CODEX_HOME"],
    folderName: ".codex",
    pattern: "sessions/YYYY/MM/DD/rollout-*.jsonl",
  },
  {
    agent: "gemini-cli",
    folderVariables: ["CONTEXT_LAB_GEMINI_DIR"],
    homeVariable: "GEMINI_CLI_HOME",
    folderName: ".gemini",
    pattern: "tmp/<project>/chats/session-*.json(l) and tmp/<project>/checkpoint-*.json",
  },
];

function rootOf(rule: RootRule, env: Environment): AgentRoot {
  const overrides = [...rule.folderVariables, ...(rule.homeVariable ? [rule.homeVariable] : []), "HOME"];
  const base = { agent: rule.agent, overrides, pattern: rule.pattern };
  const folder = firstSet(env, rule.folderVariables);
  if (folder) return { ...base, dir: path.resolve(folder.value), chosenBy: folder.name };
  const home = rule.homeVariable ? firstSet(env, [rule.homeVariable]) : null;
  if (home) return { ...base, dir: path.resolve(home.value, rule.folderName), chosenBy: home.name };
  return { ...base, dir: path.resolve(homeOf(env), rule.folderName), chosenBy: "HOME" };
}

/** Where each agent keeps its sessions on this machine, as the environment says (LA1). */
export function agentRootsOf(env: Environment): AgentRoot[] {
  return RULES.map((rule) => rootOf(rule, env));
}
