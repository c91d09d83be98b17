/** Gemini `tools` (`functionDeclarations`, built-in tools such as `googleSearch`) ↔ canonical (F-T1 in SPEC.md). */
import type { ToolDefinition } from "@/lib/context/messages";
import { extrasOf, withExtras } from "../canonical";
import { otherFields, type ConversionContext } from "../context";
import { builtinTool, functionTool, readFunctionFields, readToolList, writeToolList } from "../tools";
import type { JsonPath } from "../types";
import { field } from "./parts";

export function readGeminiTools(raw: unknown, context: ConversionContext, path: JsonPath): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  readToolList(raw, context, path, (tool, toolPath) => {
    const declarations = field(tool, "functionDeclarations");
    if (declarations === undefined) {
      tools.push(builtinTool("gemini", Object.keys(tool)[0] ?? "tool", tool));
      return undefined;
    }
    const declarationsPath = [...toolPath, tool.functionDeclarations === undefined ? "function_declarations" : "functionDeclarations"];
    tools.push(
      ...readToolList(declarations, context, declarationsPath, (declaration, declarationPath) => readDeclaration(declaration, context, declarationPath)),
    );
    return undefined;
  });
  return tools;
}

function readDeclaration(declaration: Record<string, unknown>, context: ConversionContext, path: JsonPath): ToolDefinition | undefined {
  const jsonSchema = field(declaration, "parametersJsonSchema") !== undefined;
  const schemaField = jsonSchema ? (declaration.parametersJsonSchema === undefined ? "parameters_json_schema" : "parametersJsonSchema") : "parameters";
  const fields = readFunctionFields(declaration, schemaField, context, path);
  const rest = otherFields(declaration, ["name", "description", schemaField]);
  return fields && functionTool({ ...fields, extras: withExtras(undefined, "gemini", { ...rest, ...(jsonSchema ? { jsonSchema: true } : {}) }) });
}

export function writeGeminiTools(tools: readonly ToolDefinition[], context: ConversionContext): Record<string, unknown>[] {
  const declarations: Record<string, unknown>[] = [];
  const builtins = writeToolList(tools, "gemini", context, (tool, builtin) => {
    if (builtin !== undefined) return builtin;
    const { jsonSchema, ...extras } = extrasOf(tool, "gemini");
    const { name, description, parameters } = tool.function;
    const declaration: Record<string, unknown> = { name };
    if (description !== undefined) declaration.description = description;
    if (parameters !== undefined) declaration[jsonSchema === true ? "parametersJsonSchema" : "parameters"] = parameters;
    if (tool.function.strict !== undefined) context.warn("part-dropped", `tool '${name}': Gemini has no strict flag`, ["tools"]);
    if (tool.cache_control !== undefined) context.warn("cache-control-dropped", `tool '${name}' has a cache mark, which Gemini cannot hold`, ["tools"]);
    declarations.push({ ...declaration, ...extras });
    return undefined;
  });
  return declarations.length > 0 ? [{ functionDeclarations: declarations }, ...builtins] : builtins;
}
