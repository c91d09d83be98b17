/** What both Cline files say about the task: its title, the workspace it ran in, the cost Cline reported. */
import type { SessionFacts } from "@/lib/formats";

const TITLE_LENGTH = 60;

/** The task's first line, without the `<task>` tag Cline wraps it in. */
export function taskTitle(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const inner = /<task>([\s\S]*?)(?:<\/task>|$)/.exec(text)?.[1] ?? text;
  const line = inner.trim().split("\n")[0]?.replace(/\s+/g, " ");
  if (line === undefined || line === "") return undefined;
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1).trimEnd()}…` : line;
}

/** The workspace folder named by the environment details Cline appends to user turns. */
export function workspaceOf(text: string): string | undefined {
  return /# Current Working Directory \((.+?)\) Files/.exec(text)?.[1];
}

/** Cline's session facts: the agent, and the workspace when a user turn names it. */
export function clineSession(cwd: string | undefined): SessionFacts {
  return cwd === undefined ? { agent: "cline" } : { agent: "cline", cwd };
}

/** Adds a reported cost to a running total, keeping the sum free of float dust. */
export function addCost(total: number | undefined, cost: unknown): number | undefined {
  if (typeof cost !== "number" || !Number.isFinite(cost)) return total;
  return Math.round(((total ?? 0) + cost) * 1e9) / 1e9;
}
