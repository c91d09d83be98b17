import type { ToolCall } from "@/lib/context/messages";
import { isRecord, type ConversionContext } from "../context";
import type { JsonPath } from "../types";

/** An assistant's `tool_calls` → canonical calls, with the ids of custom (free-text) calls; undefined when broken. */
export function readChatToolCalls(
  value: Record<string, unknown>,
  context: ConversionContext,
  path: JsonPath,
  index: number,
  at: number,
): { calls: ToolCall[]; custom: string[] } | undefined {
  const raw = value.tool_calls;
  if (raw === undefined || raw === null) return { calls: [], custom: [] };
  if (!Array.isArray(raw)) {
    context.fail([...path, "tool_calls"], "tool_calls must be an array of tool calls", index);
    return undefined;
  }
  const calls: ToolCall[] = [];
  const custom: string[] = [];
  let failed = false;
  raw.forEach((call: unknown, callIndex) => {
    const callPath = [...path, "tool_calls", callIndex];
    const fail = (field: string | undefined, message: string, inner?: string) => {
      const at = field === undefined ? callPath : inner === undefined ? [...callPath, field] : [...callPath, field, inner];
      context.fail(at, message, index);
      failed = true;
    };
    if (!isRecord(call)) return fail(undefined, "each tool call must be an object {id, type, function}");
    if (typeof call.id !== "string") return fail("id", "a tool call needs a string id");
    if (call.id === "") return fail("id", "a tool call has an empty id");
    if (call.type === "custom" && call.custom !== undefined) {
      const inner = call.custom;
      if (!isRecord(inner) || typeof inner.name !== "string" || typeof inner.input !== "string")
        return fail("custom", "a custom tool call needs custom {name, input}");
      calls.push({ id: call.id, type: "function", function: { name: inner.name, arguments: inner.input } });
      custom.push(call.id);
      return;
    }
    const fn = call.function;
    if (!isRecord(fn)) return fail("function", "a tool call needs a function object {name, arguments}");
    if (typeof fn.name !== "string") return fail("function", "a tool call needs a string function name", "name");
    if (fn.name === "") return fail("function", "a tool call has an empty function name", "name");
    let args = fn.arguments;
    if (typeof args !== "string") {
      if (!isRecord(args)) return fail("function", "a tool call needs arguments as a JSON string", "arguments");
      context.warn("arguments-stringified", `tool call '${call.id}' had object arguments; kept them as a JSON string`, callPath, at);
      args = JSON.stringify(args);
    }
    if (call.type === undefined) context.warn("tool-type-added", `tool call '${call.id}' had no type; set it to "function"`, callPath, at);
    else if (call.type !== "function") return fail("type", 'a tool call needs type "function" (or "custom" with a custom object)');
    calls.push({ id: call.id, type: "function", function: { name: fn.name, arguments: args as string } });
  });
  return failed ? undefined : { calls, custom };
}
