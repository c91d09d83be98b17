import path from "node:path";
import { appPort } from "./upstream-ports";

/** The home folder the e2e server's Local agents read (CONTEXT_LAB_*_DIR point into it); the spec fills it. */
export const agentsHome = path.resolve(import.meta.dirname, "..", "..", "..", "tmp", `e2e-agents-${appPort}`);

/** The environment that points every agent's folder into `agentsHome`. */
export const agentsHomeEnv: Record<string, string> = {
  CONTEXT_LAB_CLAUDE_DIR: path.join(agentsHome, ".claude"),
  CONTEXT_LAB_CODEX_DIR: path.join(agentsHome, ".codex"),
  CONTEXT_LAB_GEMINI_DIR: path.join(agentsHome, ".gemini"),
};
