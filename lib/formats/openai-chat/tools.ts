/** OpenAI Chat `tools` (and the legacy `functions`) ↔ canonical tool definitions (F-T1 in SPEC.md). */
import type { ToolDefinition } from "@/lib/context/messages";
import { readCacheControl } from "../cache";
import { extrasOf, withExtras } from "../canonical";
import { isRecord, type ConversionContext } from "../context";
import { builtinTool, functionTool, readFunctionFields, readToolList, writeToolList } from "../tools";
import type { JsonPath } from "../types";

/** Chat `tools`: function tools (nested, or flat as Responses writes them), custom tools, anything else kept as built-in. */
export function readChatTools(raw: unknown, context: ConversionContext, path: JsonPath): ToolDefinition[] {
  return readToolList(raw, context, path, (tool, toolPath) => {
    const cacheControl = readCacheControl(tool.cache_control, context, [...toolPath, "cache_control"]);
    if (tool.type === "custom" && isRecord(tool.custom)) {
      const fields = readFunctionFields(tool.custom, "parameters", context, [...toolPath, "custom"]);
      const { name: _name, description: _description, ...custom } = tool.custom;
      return fields && functionTool({ ...fields, cacheControl, extras: withExtras(undefined, "openai", { custom }) });
    }
    if (tool.type !== "function") return builtinTool("openai", typeof tool.name === "string" ? tool.name : String(tool.type), tool);
    if (tool.function === undefined && typeof tool.name === "string") {
      context.warn("shape-normalised", `tool '${tool.name}' was in the flat Responses shape; read it as a chat function tool`, toolPath);
      const fields = readFunctionFields(tool, "parameters", context, toolPath);
      return fields && functionTool({ ...fields, cacheControl });
    }
    if (!isRecord(tool.function)) {
      context.fail([...toolPath, "function"], "a tool needs a function object {name, description, parameters}");
      return undefined;
    }
    const fields = readFunctionFields(tool.function, "parameters", context, [...toolPath, "function"]);
    return fields && functionTool({ ...fields, cacheControl });
  });
}

/** The legacy `functions` list: each becomes a function tool marked to be written back as a function. */
export function readChatFunctions(raw: unknown, context: ConversionContext, path: JsonPath): ToolDefinition[] {
  return readToolList(raw, context, path, (tool, toolPath) => {
    const fields = readFunctionFields(tool, "parameters", context, toolPath);
    return fields && functionTool({ ...fields, extras: withExtras(undefined, "openai", { legacyFunction: true }) });
  });
}

/** Canonical tools → chat `tools` and, for tools read from `functions`, `functions`. */
export function writeChatTools(
  tools: readonly ToolDefinition[],
  context: ConversionContext,
): { tools: Record<string, unknown>[]; functions: Record<string, unknown>[] } {
  const functions: Record<string, unknown>[] = [];
  const written = writeToolList(tools, "openai", context, (tool, builtin) => {
    if (builtin !== undefined) return builtin;
    const extras = extrasOf(tool, "openai");
    const { name, description, parameters, strict } = tool.function;
    const fn: Record<string, unknown> = { name };
    if (description !== undefined) fn.description = description;
    if (extras.legacyFunction === true) {
      if (parameters !== undefined) fn.parameters = parameters;
      functions.push(fn);
      return undefined;
    }
    const wire: Record<string, unknown> = isRecord(extras.custom)
      ? { type: "custom", custom: { ...fn, ...extras.custom } }
      : { type: "function", function: { ...fn, ...(parameters === undefined ? {} : { parameters }), ...(strict === undefined ? {} : { strict }) } };
    if (tool.cache_control !== undefined) wire.cache_control = tool.cache_control;
    return wire;
  });
  return { tools: written, functions };
}
