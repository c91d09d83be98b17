/** Anthropic `tools` (`input_schema`; server tools by `type`) ↔ canonical tool definitions (F-T1 in SPEC.md). */
import type { ToolDefinition } from "@/lib/context/messages";
import { readCacheControl } from "../cache";
import { withExtras } from "../canonical";
import { otherFields, type ConversionContext } from "../context";
import { builtinTool, functionTool, readFunctionFields, readToolList, writeToolList } from "../tools";
import type { JsonPath } from "../types";

/** A tool with a `type` other than "custom" and no `input_schema` is a server tool (web search, code execution...). */
export function readAnthropicTools(raw: unknown, context: ConversionContext, path: JsonPath): ToolDefinition[] {
  return readToolList(raw, context, path, (tool, toolPath) => {
    if (tool.input_schema === undefined && typeof tool.type === "string" && tool.type !== "custom") {
      return builtinTool("anthropic", typeof tool.name === "string" ? tool.name : tool.type, tool);
    }
    const fields = readFunctionFields(tool, "input_schema", context, toolPath);
    if (fields === undefined) return undefined;
    if (fields.parameters === undefined && tool.input_schema === undefined)
      context.fail([...toolPath, "input_schema"], "a tool's input_schema must be a JSON Schema object");
    const cacheControl = readCacheControl(tool.cache_control, context, [...toolPath, "cache_control"]);
    const rest = otherFields(tool, ["name", "description", "input_schema", "cache_control", "strict"]);
    return functionTool({ ...fields, cacheControl, extras: withExtras(undefined, "anthropic", rest) });
  });
}

/** Canonical tools → Anthropic tools; a tool without parameters gets an empty object schema, which Anthropic requires. */
export function writeAnthropicTools(tools: readonly ToolDefinition[], context: ConversionContext): Record<string, unknown>[] {
  return writeToolList(tools, "anthropic", context, (tool, builtin) => {
    if (builtin !== undefined) return builtin;
    const { name, description, parameters } = tool.function;
    const wire: Record<string, unknown> = { name };
    if (description !== undefined) wire.description = description;
    if (parameters === undefined)
      context.warn("part-approximated", `tool '${name}' had no parameters; Anthropic requires an input_schema, so it got an empty object schema`, ["tools"]);
    wire.input_schema = parameters ?? { type: "object", properties: {} };
    if (tool.function.strict !== undefined) wire.strict = tool.function.strict;
    Object.assign(wire, tool.extras?.anthropic);
    if (tool.cache_control !== undefined) wire.cache_control = tool.cache_control;
    return wire;
  });
}
