/**
 * Tool definitions, shared by every format's tool converter (F-T1–E-T3 in
 * SPEC.md): function tools map field for field; a provider's built-in tools
 * (web search, code execution) are kept whole under that provider's extras
 * and written back only to its own format.
 */
import type { CacheControl, JsonSchema, ProviderExtras, ProviderName, ToolDefinition } from "@/lib/context/messages";
import { withExtras } from "./canonical";
import { isRecord, type ConversionContext } from "./context";
import type { JsonPath } from "./types";

/** The fields of a function tool, as every format names them one way or another. */
export interface FunctionFields {
  name: string;
  description?: string;
  parameters?: JsonSchema;
  strict?: boolean | null;
  cacheControl?: CacheControl;
  extras?: ProviderExtras;
}

/** A canonical function tool. */
export function functionTool(fields: FunctionFields): ToolDefinition {
  const tool: ToolDefinition = { type: "function", function: { name: fields.name } };
  if (fields.description !== undefined) tool.function.description = fields.description;
  if (fields.parameters !== undefined) tool.function.parameters = fields.parameters;
  if (fields.strict !== undefined) tool.function.strict = fields.strict;
  if (fields.cacheControl !== undefined) tool.cache_control = fields.cacheControl;
  if (fields.extras !== undefined) tool.extras = fields.extras;
  return tool;
}

/** A provider's built-in tool, kept whole; its name is what the provider calls it. */
export function builtinTool(provider: ProviderName, name: string, wire: Record<string, unknown>): ToolDefinition {
  return { type: "function", function: { name }, extras: withExtras(undefined, provider, { builtin: wire }) };
}

/** The built-in tool a definition holds, and whose it is; undefined for function tools. */
export function builtinOf(tool: ToolDefinition): { provider: string; wire: Record<string, unknown> } | undefined {
  for (const [provider, fields] of Object.entries(tool.extras ?? {})) {
    if (isRecord(fields.builtin)) return { provider, wire: fields.builtin };
  }
  return undefined;
}

/** Reads a tools array one tool at a time; problems and each tool's path go to `convert`. */
export function readToolList(
  raw: unknown,
  context: ConversionContext,
  path: JsonPath,
  convert: (tool: Record<string, unknown>, path: JsonPath) => ToolDefinition | undefined,
): ToolDefinition[] {
  if (!Array.isArray(raw)) {
    context.fail(path, "tools must be an array of tool definitions");
    return [];
  }
  const tools: ToolDefinition[] = [];
  raw.forEach((tool: unknown, index) => {
    if (!isRecord(tool)) context.fail([...path, index], "each tool must be an object");
    else {
      const definition = convert(tool, [...path, index]);
      if (definition !== undefined) tools.push(definition);
    }
  });
  return tools;
}

/** Checks a tool's name, description and schema fields; undefined (with problems recorded) when broken. */
export function readFunctionFields(
  tool: Record<string, unknown>,
  schemaField: string,
  context: ConversionContext,
  path: JsonPath,
): Omit<FunctionFields, "cacheControl" | "extras"> | undefined {
  if (typeof tool.name !== "string" || tool.name === "") {
    context.fail([...path, "name"], tool.name === "" ? "a tool has an empty name" : "a tool needs a string name");
    return undefined;
  }
  const fields: Omit<FunctionFields, "cacheControl" | "extras"> = { name: tool.name };
  if (tool.description !== undefined && tool.description !== null) {
    if (typeof tool.description !== "string") context.fail([...path, "description"], "a tool's description must be a string");
    else fields.description = tool.description;
  }
  const schema = tool[schemaField];
  if (schema !== undefined && schema !== null) {
    if (!isRecord(schema)) context.fail([...path, schemaField], `a tool's ${schemaField} must be a JSON Schema object`);
    else fields.parameters = schema as JsonSchema;
  }
  if (typeof tool.strict === "boolean" || tool.strict === null) fields.strict = tool.strict;
  return fields;
}

/**
 * Writes each tool with `write`; a built-in tool of another provider has no
 * place and is dropped with a warning.
 */
export function writeToolList<T>(
  tools: readonly ToolDefinition[],
  provider: ProviderName,
  context: ConversionContext,
  write: (tool: ToolDefinition, builtin: Record<string, unknown> | undefined) => T | undefined,
): T[] {
  const written: T[] = [];
  tools.forEach((tool, index) => {
    const builtin = builtinOf(tool);
    if (builtin !== undefined && builtin.provider !== provider) {
      context.warn("part-dropped", `tool '${tool.function.name}' is a ${builtin.provider} built-in tool, which ${context.format} cannot hold`, [
        "tools",
        index,
      ]);
      return;
    }
    const wire = write(tool, builtin?.wire);
    if (wire !== undefined) written.push(wire);
  });
  return written;
}
