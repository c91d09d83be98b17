/**
 * mini-swe-agent trajectories (`<instance>.traj.json`: `{info, messages,
 * trajectory_format: "mini-swe-agent-1" | "mini-swe-agent-1.1"}`). 2.x ends a
 * run with a message of role `exit` (its status and submission), which no
 * model was sent: it is kept as `source.exit` and marked, not imported as a
 * message. `info` (model stats, config, exit status, submission) is kept as
 * source; each message's time, model and usage from its `extra` as facts.
 */
import type { SessionFacts } from "@/lib/formats";
import { isRecord, type JsonPath } from "../../issues";
import type { DocumentImporter } from "../../registry";
import type { ConversationDraft } from "../../requests";
import { type TrajectoryMessage, isResponsesTrajectory, readChatMessages, readResponsesMessages } from "./messages";

function isMiniTrajectory(value: unknown): value is Record<string, unknown> & { messages: unknown[] } {
  if (!isRecord(value) || !Array.isArray(value.messages)) return false;
  if (typeof value.trajectory_format === "string") return value.trajectory_format.startsWith("mini-swe-agent");
  return isRecord(value.info) && typeof value.info.mini_version === "string";
}

export const miniSweAgentImporter: DocumentImporter = {
  format: "mini-swe-agent",
  detect: isMiniTrajectory,
  convert(value, place, context) {
    const trajectory = value as Record<string, unknown> & { messages: unknown[] };
    const scope = context.scope([...place.path, "messages"], place.conversationIndex);
    const kept: TrajectoryMessage[] = [];
    const exits: { value: Record<string, unknown>; path: JsonPath; before: number }[] = [];
    trajectory.messages.forEach((message, index) => {
      if (!isRecord(message)) return scope.fail(index, [], "a message must be an object {role, content, extra?}");
      if (message.role === "exit") exits.push({ value: message, path: [...scope.prefix, index], before: kept.length });
      else kept.push({ value: message, index });
    });
    const read = isResponsesTrajectory(kept) ? readResponsesMessages(kept, scope) : readChatMessages(kept, scope);
    const source: Record<string, unknown> = Object.fromEntries(Object.entries(trajectory).filter(([key]) => key !== "messages"));
    for (const exit of exits) {
      const extra = isRecord(exit.value.extra) ? exit.value.extra : {};
      const status = typeof extra.exit_status === "string" ? extra.exit_status : String(exit.value.content ?? "");
      source.exit = { content: exit.value.content, ...extra };
      scope.warn("marker", `the run ended here (${status}): mini-swe-agent's exit message, which no model was sent, is kept as source.exit`, {
        messageIndex: Math.max(0, Math.min(exit.before, read.messages.length) - 1),
        path: exit.path,
      });
    }
    const draft: ConversationDraft = { format: "mini-swe-agent", messages: read.messages, warnings: scope.warnings, source, session: sessionOf(trajectory) };
    if (read.facts.some((facts) => facts !== undefined)) draft.facts = read.facts;
    return [draft];
  },
};

function sessionOf(trajectory: Record<string, unknown>): SessionFacts {
  const session: SessionFacts = { agent: "mini-swe-agent" };
  const info = isRecord(trajectory.info) ? trajectory.info : {};
  if (typeof info.mini_version === "string") session.agentVersion = info.mini_version;
  const config = isRecord(info.config) ? info.config : {};
  const environment = isRecord(config.environment) ? config.environment : {};
  if (typeof environment.cwd === "string" && environment.cwd !== "") session.cwd = environment.cwd;
  return session;
}
