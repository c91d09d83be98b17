/**
 * SWE-agent trajectories (`<instance>.traj`: `{trajectory, history, info,
 * replay_config, environment}`). `history` is what the model was sent, in
 * OpenAI chat messages with SWE-agent's fields beside them (tool results
 * name their call in `tool_call_ids`, a list); without function calling the
 * assistant's thought and command are plain text. Each `trajectory` step
 * (execution time, environment state) is kept with the assistant message it
 * belongs to; `info` (exit status, submission, model stats) is kept as source.
 */
import type { CallFacts, SessionFacts } from "@/lib/formats";
import { isRecord, type JsonPath, type MessageScope } from "../issues";
import type { DocumentImporter, ImportContext, ImportPlace } from "../registry";
import type { ConversationDraft } from "../requests";
import { readChatWire, type ChatWireMessage } from "./chat-wire";
import { litellmChatMessage } from "./litellm-message";

/** The fields of a history item the chat reader reads; the others are SWE-agent's bookkeeping (message_type, agent, thought, action, tags). */
const CHAT_FIELDS = ["role", "content", "tool_calls", "thinking_blocks", "reasoning_content", "cache_control", "name"];

function isTrajectory(value: unknown): value is Record<string, unknown> & { history: unknown[]; trajectory: unknown[] } {
  return isRecord(value) && Array.isArray(value.history) && Array.isArray(value.trajectory);
}

function attemptsOf(value: unknown): unknown[] | undefined {
  return isRecord(value) && Array.isArray(value.attempts) && value.attempts.length > 0 && value.attempts.every(isTrajectory) ? value.attempts : undefined;
}

export const sweAgentImporter: DocumentImporter = {
  format: "swe-agent",
  detect(value) {
    return isTrajectory(value) || attemptsOf(value) !== undefined;
  },
  convert(value, place, context) {
    const attempts = attemptsOf(value);
    if (isTrajectory(value)) {
      const draft = convertTrajectory(value, place, context);
      if (attempts !== undefined && attempts.length > 1) {
        const chosen = isRecord(value.info) ? value.info.best_attempt_idx : undefined;
        draft.warnings.push({
          code: "entry-skipped",
          message: `the file holds ${attempts.length} attempts: imported the one SWE-agent chose${typeof chosen === "number" ? ` (attempt ${chosen})` : ""}; the others are in attempts`,
          path: "attempts",
        });
      }
      return [draft];
    }
    return (attempts ?? []).map((attempt, index) =>
      convertTrajectory(
        attempt as Record<string, unknown> & { history: unknown[]; trajectory: unknown[] },
        { path: [...place.path, "attempts", index], conversationIndex: index },
        context,
      ),
    );
  },
};

function convertTrajectory(
  traj: Record<string, unknown> & { history: unknown[]; trajectory: unknown[] },
  place: ImportPlace,
  context: ImportContext,
): ConversationDraft {
  const scope = context.scope([...place.path, "history"], place.conversationIndex);
  const model = modelOf(traj.replay_config);
  const wire: ChatWireMessage[] = [];
  const facts: (CallFacts | undefined)[] = [];
  const actions: { messageIndex: number; item: Record<string, unknown> }[] = [];
  traj.history.forEach((item, index) => {
    const message = chatMessageOf(item, index, scope);
    if (message === undefined) return;
    if (message.role === "assistant" && isRecord(item)) actions.push({ messageIndex: wire.length, item });
    wire.push({ message, source: [...scope.prefix, index] });
    facts.push(message.role === "assistant" && model !== undefined ? { model } : undefined);
  });
  const messages = readChatWire(scope, wire);
  const draft: ConversationDraft = {
    format: "swe-agent",
    messages,
    warnings: scope.warnings,
    source: sourceOf(traj, actions, scope, [...place.path, "trajectory"]),
  };
  if (facts.some((entry) => entry !== undefined) && facts.length === messages.length) draft.facts = facts;
  draft.session = sessionOf(traj);
  return draft;
}

function chatMessageOf(item: unknown, index: number, scope: MessageScope): Record<string, unknown> | undefined {
  if (!isRecord(item)) {
    scope.fail(index, [], "a history item must be an object {role, content}");
    return undefined;
  }
  const message = Object.fromEntries(CHAT_FIELDS.filter((field) => item[field] !== undefined && item[field] !== null).map((field) => [field, item[field]]));
  if (Array.isArray(message.tool_calls) && message.tool_calls.length === 0) delete message.tool_calls;
  if (item.role !== "tool") return litellmChatMessage(message);
  const ids = Array.isArray(item.tool_call_ids) ? item.tool_call_ids : typeof item.tool_call_id === "string" ? [item.tool_call_id] : [];
  if (ids.length === 0 || typeof ids[0] !== "string") {
    scope.fail(index, ["tool_call_ids"], "a tool message needs tool_call_ids: the id of the call it answers");
    return undefined;
  }
  // SWE-agent runs one call a step, so the list holds one id; a longer one answers its first call here.
  if (ids.length > 1)
    scope.warn("part-approximated", `the observation names ${ids.length} calls (tool_call_ids): it answers the first, ${String(ids[0])}`, {
      path: [...scope.prefix, index, "tool_call_ids"],
    });
  return { ...message, tool_call_id: ids[0] };
}

/** The model of the run, from `replay_config` (an object, or the JSON text newer versions write). */
function modelOf(replayConfig: unknown): string | undefined {
  const config = typeof replayConfig === "string" ? parseJson(replayConfig) : replayConfig;
  const agent = isRecord(config) ? config.agent : undefined;
  const model = isRecord(agent) ? agent.model : undefined;
  return isRecord(model) && typeof model.name === "string" ? model.name : undefined;
}

/**
 * Each step with the index of its assistant message, matched in order by its
 * action (or thought); a step that matches none (history processors may drop
 * messages) is kept without one.
 */
function sourceOf(
  traj: Record<string, unknown> & { trajectory: unknown[] },
  actions: { messageIndex: number; item: Record<string, unknown> }[],
  scope: MessageScope,
  path: JsonPath,
): Record<string, unknown> {
  let next = 0;
  let queries = 0;
  const steps = traj.trajectory.map((step) => {
    if (!isRecord(step)) return step;
    const { query, action: _action, observation: _observation, response: _response, thought: _thought, ...rest } = step;
    if (query !== undefined) queries += 1;
    // SWE-agent 0.x wrote the state as JSON text.
    if (typeof rest.state === "string") rest.state = parseJson(rest.state) ?? rest.state;
    const found = actions.findIndex(({ item }, position) => position >= next && (item.action === step.action || item.thought === step.thought));
    if (found === -1) return rest;
    next = found + 1;
    return { messageIndex: actions[found].messageIndex, ...rest };
  });
  if (queries > 0)
    scope.warn("entry-skipped", `the steps' query (the messages sent for each of ${queries} steps, which history holds once) was not kept`, { path });
  const source: Record<string, unknown> = { steps };
  for (const key of ["info", "environment", "replay_config"]) if (traj[key] !== undefined && traj[key] !== null) source[key] = traj[key];
  return source;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sessionOf(traj: Record<string, unknown> & { trajectory: unknown[] }): SessionFacts {
  const session: SessionFacts = { agent: "swe-agent" };
  const info = isRecord(traj.info) ? traj.info : {};
  if (typeof info.swe_agent_version === "string") session.agentVersion = info.swe_agent_version;
  const states = traj.trajectory.map((step) => (isRecord(step) ? (typeof step.state === "string" ? parseJson(step.state) : step.state) : undefined));
  const state = states.find(isRecord);
  if (state !== undefined && typeof state.working_dir === "string") session.cwd = state.working_dir;
  return session;
}
