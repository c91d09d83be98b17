import fs from "node:fs";
import path from "node:path";
import type { Message } from "@/lib/context";

/** One tau-bench trajectory (sierra-research/tau-bench, MIT). */
interface Trajectory {
  task_id: number;
  traj: Message[];
}

const FIXTURE = path.join(import.meta.dirname, "..", "tests", "fixtures", "tau-bench-gpt4o-airline.json");

/** The 200 real trajectories committed with the test fixtures. */
export function loadTrajectories(): Trajectory[] {
  return JSON.parse(fs.readFileSync(FIXTURE, "utf8")) as Trajectory[];
}

/**
 * A long conversation made of real trajectories one after another: one system
 * prompt, then each trajectory's turns, cut at a round boundary so tool pairs
 * stay whole, ending on a user turn (an incomplete round, as before a model call).
 */
export function buildConversation(size: number, trajectories = loadTrajectories()): Message[] {
  const system = trajectories[0].traj.find((message) => message.role === "system");
  const history: Message[] = system ? [system] : [];
  for (let pass = 0; history.length < size; pass += 1) {
    for (const trajectory of trajectories) {
      const turns = trajectory.traj.filter((message) => message.role !== "system");
      for (const message of turns) {
        // Copies, so every conversation's messages are distinct objects (no shared count cache).
        history.push(pass === 0 ? { ...message } : { ...message, content: message.content === null ? null : `${message.content} ` });
      }
      if (history.length >= size) break;
    }
  }
  let end = Math.min(history.length, size - 1);
  // Back off to a round boundary: the message before the cut must be a final answer.
  while (end > 1 && !(history[end - 1].role === "assistant" && !history[end - 1].tool_calls?.length)) end -= 1;
  const conversation = history.slice(0, end);
  while (conversation.length < size)
    conversation.push({ role: "user", content: `Follow-up question ${conversation.length}: can you check my reservation again?` });
  return conversation;
}
