/// <reference types="vite/client" />
// Real agent conversations from tau-bench (sierra-research/tau-bench, MIT licence):
// `historical_trajectories/gpt-4o-airline.json`, 200 GPT-4o airline-support trajectories.
// `import.meta.glob` loads them in both test environments (node and happy-dom).
import type { Message } from "../messages";

export interface Trajectory {
  taskId: number | string;
  messages: Message[];
}

interface RawEntry {
  task_id?: number | string;
  traj?: Message[];
  messages?: Message[];
}

const SHARED = import.meta.glob<unknown>("../../../tests/fixtures/tau-bench-gpt4o-airline.json", { eager: true, import: "default" });
const SAMPLE = import.meta.glob<unknown>("../../../tests/fixtures/tau-bench-airline-sample.json", { eager: true, import: "default" });

function normalise(data: unknown): Trajectory[] {
  const entries = Array.isArray(data) ? data : ((data as { trajectories?: unknown[] })?.trajectories ?? []);
  return entries.map((entry, index) => {
    if (Array.isArray(entry)) return { taskId: index, messages: entry as Message[] };
    const raw = entry as RawEntry;
    return { taskId: raw.task_id ?? index, messages: raw.traj ?? raw.messages ?? [] };
  });
}

const shared = Object.values(SHARED).map(normalise)[0];
const sample = Object.values(SAMPLE).map(normalise)[0];

// Picked for variety: reused tool_call_ids (0, 3, 14), the longest (3, 133), the shortest (185, 194), an ending on a tool result (88).
const SAMPLE_TASKS = [0, 3, 5, 14, 88, 133, 185, 194];

/** All 200 trajectories (tests/fixtures), else the sample. */
export function allTrajectories(): Trajectory[] {
  const found = shared ?? sample;
  if (!found || found.length === 0)
    throw new Error("no tau-bench fixture: expected tests/fixtures/tau-bench-gpt4o-airline.json or tests/fixtures/tau-bench-airline-sample.json");
  return found;
}

/** 6–8 trajectories: the repository's sample when it exists, else a fixed pick from the shared file. */
export function sampleTrajectories(): Trajectory[] {
  if (sample && sample.length > 0) return sample;
  return allTrajectories().filter((_, index) => SAMPLE_TASKS.includes(index));
}

/** Whether the full 200-trajectory file is available. */
export const hasAllTrajectories = shared !== undefined;
