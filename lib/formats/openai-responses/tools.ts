/** OpenAI Responses `tools` (flat function tools, custom tools, built-in tools) ↔ canonical (F-T1 in SPEC.md). */
import type { ToolDefinition } from "@/lib/context/messages";
import { extrasOf, withExtras } from "../canonical";
import { isRecord, type ConversionContext } from "../context";
import { builtinTool, functionTool, readFunctionFields, readToolList, writeToolList } from "../tools";
import type { JsonPath } from "../types";

export function readResponsesTools(raw: unknown, context: ConversionContext, path: JsonPath): ToolDefinition[] {
  return readToolList(raw, context, path, (tool, toolPath) => {
    if (tool.type === "custom") {
      const fields = readFunctionFields(tool, "parameters", context, toolPath);
      const { type: _type, name: _name, description: _description, ...custom } = tool;
      return fields && functionTool({ ...fields, extras: withExtras(undefined, "openai", { custom }) });
    }
    if (tool.type !== "function") return builtinTool("openai", typeof tool.name === "string" ? tool.name : String(tool.type), tool);
    if (isRecord(tool.function)) {
      context.warn("shape-normalised", "a tool was in the nested chat shape; read it as a Responses function tool", toolPath);
      const fields = readFunctionFields(tool.function, "parameters", context, [...toolPath, "function"]);
      return fields && functionTool(fields);
    }
    const fields = readFunctionFields(tool, "parameters", context, toolPath);
    return fields && functionTool(fields);
  });
}

export function writeResponsesTools(tools: readonly ToolDefinition[], context: ConversionContext): Record<string, unknown>[] {
  return writeToolList(tools, "openai", context, (tool, builtin) => {
    if (builtin !== undefined) return builtin;
    const custom = extrasOf(tool, "openai").custom;
    const { name, description, parameters, strict } = tool.function;
    const wire: Record<string, unknown> = { type: isRecord(custom) ? "custom" : "function", name };
    if (description !== undefined) wire.description = description;
    if (isRecord(custom)) return { ...wire, ...custom };
    if (parameters !== undefined) wire.parameters = parameters;
    if (strict !== undefined) wire.strict = strict;
    if (tool.cache_control !== undefined)
      context.warn("cache-control-dropped", `tool '${name}' has a cache mark, which OpenAI Responses cannot hold`, ["tools"]);
    return wire;
  });
}
