/** The panel's tool entries (`ClineSayTool`: `{tool, path, content, diff, ...}`) as tool calls. */
import { isRecord } from "../../issues";

/** The API's names for the panel's tool kinds. */
const TOOL_NAMES: Record<string, string> = {
  readFile: "read_file",
  editedExistingFile: "replace_in_file",
  newFileCreated: "write_to_file",
  listFilesTopLevel: "list_files",
  listFilesRecursive: "list_files",
  listCodeDefinitionNames: "list_code_definition_names",
  searchFiles: "search_files",
  webFetch: "web_fetch",
  webSearch: "web_search",
  summarizeTask: "summarize_task",
  useSkill: "use_skill",
};

/** Tool kinds whose `content` is what the tool returned, not what it was asked. */
const OUTPUT_CONTENT = new Set(["listFilesTopLevel", "listFilesRecursive", "listCodeDefinitionNames", "searchFiles", "webFetch", "webSearch"]);

/** A tool entry's call: the API's name for it, its fields as arguments, and its output when the panel holds it. */
export function panelTool(text: string): { name: string; input: Record<string, unknown>; output?: string } {
  const { tool, ...input } = parseJson(text) ?? { tool: "tool", text };
  const kind = String(tool);
  const output = OUTPUT_CONTENT.has(kind) && typeof input.content === "string" ? input.content : undefined;
  if (output !== undefined) delete input.content;
  return output === undefined ? { name: TOOL_NAMES[kind] ?? kind, input } : { name: TOOL_NAMES[kind] ?? kind, input, output };
}

export function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
