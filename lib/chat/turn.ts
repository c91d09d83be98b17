import type { ApiIssue } from "@/lib/api/errors";
import type { Message } from "@/lib/context";
import { RecorderError } from "./errors";
import { pendingToolCalls, type ChatTurnInput } from "./types";

/**
 * The messages a chat request adds to a branch: its tool results (in the
 * order of the calls they answer), then its user turn. Refuses results that
 * answer no pending call of the branch's last assistant message, calls left
 * without a result, and a request with nothing for the model to answer.
 */
export function turnMessages(history: readonly Message[], input: ChatTurnInput): Message[] {
  const pending = pendingToolCalls(history);
  const results = input.toolResults ?? [];
  const pendingText =
    pending.length > 0
      ? `pending: ${pending.map((call) => `'${call.id}' (${call.function.name})`).join(", ")}`
      : "the branch's last assistant message has no pending tool calls";
  const issues: ApiIssue[] = [];
  const answered = new Map<string, string>();
  results.forEach((result, index) => {
    const path = `toolResults[${index}].tool_call_id`;
    if (!pending.some((call) => call.id === result.tool_call_id))
      issues.push({ path, message: `'${result.tool_call_id}' answers no pending tool call; ${pendingText}` });
    else if (answered.has(result.tool_call_id)) issues.push({ path, message: `'${result.tool_call_id}' already has a result in this request` });
    answered.set(result.tool_call_id, result.content);
  });
  if (issues.length > 0) {
    throw new RecorderError(
      422,
      "tool_results_mismatch",
      `tool results must answer the pending calls of the branch's last assistant message: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}; nothing was recorded`,
      issues,
    );
  }
  const missing = pending.filter((call) => !answered.has(call.id));
  if (missing.length > 0 && (results.length > 0 || input.userTurn !== undefined)) {
    const list = missing.map((call) => `'${call.id}' (${call.function.name})`).join(", ");
    throw new RecorderError(
      422,
      "tool_results_mismatch",
      `tool call${missing.length === 1 ? "" : "s"} ${list} of the last assistant message still ${missing.length === 1 ? "has" : "have"} no result: send every pending call's result in toolResults${input.userTurn !== undefined ? " before a user turn" : ""}; nothing was recorded`,
      [{ path: "toolResults", message: `missing results for ${list}` }],
    );
  }
  if (missing.length > 0) {
    throw new RecorderError(
      422,
      "nothing_to_answer",
      `the last assistant message waits for ${missing.length} tool result${missing.length === 1 ? "" : "s"}: send them in toolResults`,
      [{ path: "toolResults", message: "required while tool calls are pending" }],
    );
  }
  const messages: Message[] = pending.map((call) => ({ role: "tool", tool_call_id: call.id, content: answered.get(call.id)! }));
  if (input.userTurn !== undefined) messages.push({ role: "user", content: input.userTurn });
  if (messages.length === 0) {
    const last = history.at(-1);
    if (!last || (last.role !== "user" && last.role !== "tool")) {
      const why = last
        ? `the branch ends with ${last.role === "assistant" ? "the assistant's reply" : `a ${last.role} message`}`
        : "the branch has no messages";
      throw new RecorderError(422, "nothing_to_answer", `nothing for the model to answer: ${why}; send a userTurn`, [
        { path: "userTurn", message: "required here" },
      ]);
    }
  }
  return messages;
}
