/**
 * ShareGPT conversations (`{conversations: [{from, value}], tools?, system?}`,
 * alone or in an array), with LLaMA-Factory's tool turns: `function_call`
 * holds `{name, arguments}` JSON (or a list of them), `observation` the result.
 * ShareGPT has no call ids: each call gets `sharegpt_call_<message>_<n>` and
 * the observation after it answers it, with a warning saying so.
 */
import { readChatFunctions } from "@/lib/formats";
import type { ToolDefinition } from "@/lib/context/messages";
import { isRecord, type JsonPath, type MessageScope } from "../issues";
import type { DocumentImporter, ImportContext, ImportPlace } from "../registry";
import { readWithScope, type ConversationDraft } from "../requests";
import { readChatWire, type ChatWireMessage } from "./chat-wire";

const ROLES: Record<string, string> = { human: "user", user: "user", gpt: "assistant", assistant: "assistant", model: "assistant", system: "system" };
const CALL_ROLES = new Set(["function_call", "tool_call"]);
const RESULT_ROLES = new Set(["observation", "function", "tool", "tool_response"]);

function isEntry(value: unknown): value is { conversations: unknown[] } & Record<string, unknown> {
  return isRecord(value) && Array.isArray(value.conversations) && value.conversations.every((turn) => isRecord(turn) && "from" in turn);
}

export const sharegptImporter: DocumentImporter = {
  format: "sharegpt",
  detect(value) {
    return Array.isArray(value) ? value.length > 0 && isEntry(value[0]) : isEntry(value);
  },
  convert(value, place, context) {
    if (!Array.isArray(value)) return [convertEntry(value, place, context)];
    return value.map((entry, index) => convertEntry(entry, { path: [...place.path, index], conversationIndex: index }, context));
  },
};

function convertEntry(raw: unknown, place: ImportPlace, context: ImportContext): ConversationDraft {
  const scope = context.scope([...place.path, "conversations"], place.conversationIndex);
  if (!isEntry(raw)) {
    scope.failAt(place.path, "a ShareGPT entry must be an object {conversations: [{from, value}, ...]}");
    return { format: "sharegpt", messages: [], warnings: scope.warnings };
  }
  const wire: ChatWireMessage[] = [];
  if (typeof raw.system === "string" && raw.system !== "") wire.push({ message: { role: "system", content: raw.system }, source: [...place.path, "system"] });
  let open: string[] = [];
  let generated = 0;
  raw.conversations.forEach((turn, index) => {
    const { from, value } = turn as Record<string, unknown>;
    const source: JsonPath = [...scope.prefix, index];
    if (typeof value !== "string") return scope.fail(index, ["value"], "a turn needs a string value");
    if (typeof from === "string" && CALL_ROLES.has(from)) {
      const calls = readCalls(value, index, scope);
      if (calls === undefined) return;
      open = calls.map((_, position) => `sharegpt_call_${index}_${position}`);
      generated += calls.length;
      const tool_calls = calls.map((call, position) => ({ id: open[position], type: "function", function: call }));
      wire.push({ message: { role: "assistant", content: null, tool_calls }, source });
      return;
    }
    if (typeof from === "string" && RESULT_ROLES.has(from)) {
      const id = open.shift();
      if (id === undefined) return scope.fail(index, ["from"], `an ${from} turn needs a function_call turn before it`);
      wire.push({ message: { role: "tool", tool_call_id: id, content: value }, source });
      return;
    }
    const role = typeof from === "string" ? ROLES[from] : undefined;
    if (role === undefined)
      return scope.fail(index, ["from"], `unknown speaker ${JSON.stringify(from)}: expected human, gpt, system, function_call or observation`);
    wire.push({ message: { role, content: value }, source });
  });
  const messages = readChatWire(scope, wire);
  if (generated > 0)
    scope.warn(
      "call-id-generated",
      `ShareGPT has no call ids: ${generated} call${generated === 1 ? "" : "s"} got ids (sharegpt_call_<turn>_<n>), each answered by the observation after it`,
    );
  const draft: ConversationDraft = { format: "sharegpt", messages, warnings: scope.warnings };
  const tools = readTools(raw.tools, [...place.path, "tools"], scope);
  if (tools !== undefined && tools.length > 0) draft.tools = tools;
  return draft;
}

/** `{"name": ..., "arguments": {...}}` or a list of them → chat function calls. */
function readCalls(value: string, index: number, scope: MessageScope): { name: string; arguments: string }[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    scope.fail(index, ["value"], 'a function_call turn\'s value must be JSON {"name", "arguments"}');
    return undefined;
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (!list.every((call) => isRecord(call) && typeof call.name === "string")) {
    scope.fail(index, ["value"], 'a function_call turn\'s value must be JSON {"name", "arguments"} (or a list of them)');
    return undefined;
  }
  return list.map((call: Record<string, unknown>) => ({
    name: call.name as string,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
}

/** `tools` as JSON text (LLaMA-Factory) or an array of function definitions. */
function readTools(raw: unknown, path: JsonPath, scope: MessageScope): ToolDefinition[] | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      scope.failAt(path, "tools must be a JSON list of function definitions");
      return undefined;
    }
  }
  return readWithScope(scope, "openai-chat", path, (conversion) => readChatFunctions(value, conversion, []));
}
