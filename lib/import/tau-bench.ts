/** tau-bench trajectories (`{traj, task_id, reward, trial, info}`): OpenAI messages plus run metadata kept as `source`. */
import * as z from "zod";
import type { Message } from "@/lib/context/messages";
import { validate, type JsonPath, type MessageScope } from "./issues";
import { convertMessageList, type ConversationDraft } from "./requests";

const entrySchema = z.object(
  {
    traj: z.array(z.unknown(), { error: "a tau-bench entry needs traj: an array of messages" }),
    task_id: z.union([z.number(), z.string()], { error: "task_id must be a number or a string" }).optional(),
    reward: z.number({ error: "reward must be a number" }).nullable().optional(),
    trial: z.number({ error: "trial must be a number" }).optional(),
  },
  { error: "a tau-bench entry must be an object {traj, task_id, reward, info}" },
);

type Entry = z.infer<typeof entrySchema>;

/** Converts one entry at `path`; `filename` can name the domain when the policy does not. */
export function convertTauBenchEntry(raw: unknown, path: JsonPath, makeScope: (prefix: JsonPath) => MessageScope, filename?: string): ConversationDraft {
  const scope = makeScope([...path, "traj"]);
  const entry = validate(entrySchema, raw, (at, message) => scope.failAt([...path, ...at], message));
  if (entry === undefined) return { format: "tau-bench", messages: [], warnings: scope.warnings };
  const messages = convertMessageList(entry.traj, "openai", scope);
  const source = Object.fromEntries(Object.entries(raw as Record<string, unknown>).filter(([key]) => key !== "traj"));
  return { format: "tau-bench", messages, warnings: scope.warnings, source, title: tauBenchTitle(entry, messages, filename) };
}

const policyHeading = /^#\s*(\w+)\s+agent\s+policy/i;
const knownDomains = /airline|retail/i;

/** "tau-bench airline task 12 (trial 0, reward 1)"; the domain comes from the policy heading or the file name. */
function tauBenchTitle(entry: Entry, messages: readonly Message[], filename?: string): string {
  const system = messages.find((message) => message.role === "system")?.content ?? "";
  const domain = policyHeading.exec(system)?.[1] ?? knownDomains.exec(filename ?? "")?.[0];
  const parts = ["tau-bench"];
  if (domain !== undefined) parts.push(domain.toLowerCase());
  if (entry.task_id !== undefined) parts.push(`task ${entry.task_id}`);
  const details: string[] = [];
  if (entry.trial !== undefined) details.push(`trial ${entry.trial}`);
  if (typeof entry.reward === "number") details.push(`reward ${entry.reward}`);
  return details.length > 0 ? `${parts.join(" ")} (${details.join(", ")})` : parts.join(" ");
}
