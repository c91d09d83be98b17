import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";

const fixtures = path.join(import.meta.dirname, "..", "..", "fixtures");

export interface TauBenchEntry {
  task_id: number;
  traj: { role: string; content: string | null }[];
}

/** The six real tau-bench trajectories of `tests/fixtures`. */
export const tauBench = JSON.parse(fs.readFileSync(path.join(fixtures, "tau-bench-airline-sample.json"), "utf8")) as TauBenchEntry[];

export function fixtureText(name: string): string {
  return fs.readFileSync(path.join(fixtures, name), "utf8");
}

/** Saves a conversation through the real API and returns its id and root branch. */
export async function importConversation(request: APIRequestContext, text: string, title: string): Promise<{ conversationId: string; branchId: string }> {
  const response = await request.post(`/api/conversations/import?title=${encodeURIComponent(title)}&conversation=0`, {
    data: text,
    headers: { "content-type": "application/x-ndjson" },
  });
  if (!response.ok()) throw new Error(`import failed: ${response.status()} ${await response.text()}`);
  const body = (await response.json()) as { conversations: { conversation: { id: string }; branch: { id: string } }[] };
  return { conversationId: body.conversations[0].conversation.id, branchId: body.conversations[0].branch.id };
}
