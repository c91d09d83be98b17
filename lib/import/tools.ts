/** Tool definitions of either dialect → OpenAI `ToolDefinition`s, the engine's shape. */
import * as z from "zod";
import type { JsonSchema, ToolDefinition } from "@/lib/context/messages";
import { isRecord, validate, type JsonPath, type MessageScope } from "./issues";

const definitionFields = {
  name: z.string({ error: "a tool needs a string name" }).min(1, { error: "a tool has an empty name" }),
  description: z.string({ error: "a tool's description must be a string" }).nullable().optional(),
};
const schemaObject = (field: string) => z.record(z.string(), z.unknown(), { error: `a tool's ${field} must be a JSON Schema object` });

const openAIFunctionSchema = z.object({
  ...definitionFields,
  parameters: schemaObject("parameters").optional(),
  strict: z.boolean({ error: "a tool's strict must be a boolean" }).nullable().optional(),
});

const anthropicToolSchema = z.object({ ...definitionFields, input_schema: schemaObject("input_schema") });

type FunctionFields = z.infer<typeof openAIFunctionSchema>;

function toDefinition(fields: FunctionFields): ToolDefinition {
  const definition: ToolDefinition = { type: "function", function: { name: fields.name } };
  if (typeof fields.description === "string") definition.function.description = fields.description;
  if (fields.parameters !== undefined) definition.function.parameters = fields.parameters as JsonSchema;
  if (typeof fields.strict === "boolean") definition.function.strict = fields.strict;
  return definition;
}

function eachTool(raw: unknown, path: JsonPath, scope: MessageScope, convert: (tool: Record<string, unknown>, path: JsonPath) => ToolDefinition | undefined) {
  if (!Array.isArray(raw)) {
    scope.failAt(path, "tools must be an array of tool definitions");
    return undefined;
  }
  const tools: ToolDefinition[] = [];
  raw.forEach((tool: unknown, index) => {
    const toolPath = [...path, index];
    if (!isRecord(tool)) scope.failAt(toolPath, "each tool must be an object");
    else {
      const definition = convert(tool, toolPath);
      if (definition !== undefined) tools.push(definition);
    }
  });
  return tools;
}

/**
 * OpenAI `tools` (`{type: "function", function}`), also the flat Responses
 * shape and the legacy `functions` list; built-in tools (web search, ...) are
 * dropped with a warning since nothing can call them here.
 */
export function convertOpenAITools(raw: unknown, path: JsonPath, scope: MessageScope, legacy = false): ToolDefinition[] | undefined {
  if (legacy) scope.warn("tool-converted", "legacy functions became tools", { path });
  return eachTool(raw, path, scope, (tool, toolPath) => {
    const report = (at: JsonPath, message: string) => scope.failAt([...toolPath, ...at], message);
    if (legacy) return mapDefined(validate(openAIFunctionSchema, tool, report), toDefinition);
    if (tool.type !== "function") {
      scope.warn("tool-dropped", `dropped a built-in ${JSON.stringify(tool.type)} tool`, { path: toolPath });
      return undefined;
    }
    if (tool.function === undefined && typeof tool.name === "string") {
      scope.warn("tool-converted", `tool '${tool.name}' was in the flat Responses shape; nested it under function`, { path: toolPath });
      return mapDefined(validate(openAIFunctionSchema, tool, report), toDefinition);
    }
    const nested = (at: JsonPath, message: string) => report(["function", ...at], message);
    if (!isRecord(tool.function)) {
      nested([], "a tool needs a function object {name, description, parameters}");
      return undefined;
    }
    return mapDefined(validate(openAIFunctionSchema, tool.function, nested), toDefinition);
  });
}

/** Anthropic `tools` (`{name, description, input_schema}`); server tools are dropped with a warning. */
export function convertAnthropicTools(raw: unknown, path: JsonPath, scope: MessageScope): ToolDefinition[] | undefined {
  return eachTool(raw, path, scope, (tool, toolPath) => {
    if (tool.input_schema === undefined && typeof tool.type === "string" && tool.type !== "custom") {
      scope.warn("tool-dropped", `dropped the Anthropic server tool ${JSON.stringify(tool.type)}`, { path: toolPath });
      return undefined;
    }
    const parsed = validate(anthropicToolSchema, tool, (at, message) => scope.failAt([...toolPath, ...at], message));
    return mapDefined(parsed, (fields) => toDefinition({ name: fields.name, description: fields.description, parameters: fields.input_schema }));
  });
}

function mapDefined<T, U>(value: T | undefined, map: (value: T) => U): U | undefined {
  return value === undefined ? undefined : map(value);
}
