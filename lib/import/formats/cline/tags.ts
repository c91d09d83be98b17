/**
 * Cline before native tool calling (and its forks Roo Code and Kilo Code,
 * which write the same files) had the model write each tool use as tags in
 * its text: `<read_file>\n<path>src/a.ts</path>\n</read_file>`, and its
 * thinking as `<thinking>…</thinking>`. This splits such a text into text,
 * thinking and tool uses the way Cline's own parser does.
 */

/** Tool tags Cline and its forks have known (Cline's `toolUseNames` across versions, Roo Code's additions). */
const TOOL_NAMES = [
  "execute_command",
  "read_file",
  "write_to_file",
  "replace_in_file",
  "search_files",
  "list_files",
  "list_code_definition_names",
  "browser_action",
  "use_mcp_tool",
  "access_mcp_resource",
  "ask_followup_question",
  "attempt_completion",
  "plan_mode_respond",
  "act_mode_respond",
  "load_mcp_documentation",
  "new_task",
  "condense",
  "summarize_task",
  "report_bug",
  "new_rule",
  "web_fetch",
  "web_search",
  "focus_chain",
  "apply_patch",
  "use_skill",
  "apply_diff",
  "insert_content",
  "search_and_replace",
  "switch_mode",
  "fetch_instructions",
  "codebase_search",
  "update_todo_list",
];

/** Parameters whose value may hold its own closing tag (a file's content): they end at the last one, as in Cline's parser. */
const LONG_PARAMETERS = new Set(["content", "diff"]);

const OPENING_TAG = new RegExp(`<(thinking|${TOOL_NAMES.join("|")})>`, "g");
const PARAMETER_TAG = /<([A-Za-z_][\w-]*)>/g;

export type TaggedSegment =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string }
  /** `stray`: text inside the tool tag that is not a parameter (Cline ignores it too). */
  | { type: "tool"; name: string; input: Record<string, string>; stray: string };

/** The segments of an assistant text, or undefined when it holds no complete tool or thinking tag. */
export function splitTaggedText(text: string): TaggedSegment[] | undefined {
  const segments: TaggedSegment[] = [];
  let textStart = 0;
  OPENING_TAG.lastIndex = 0;
  for (let match = OPENING_TAG.exec(text); match !== null; match = OPENING_TAG.exec(text)) {
    const name = match[1];
    const bodyStart = match.index + match[0].length;
    const closing = `</${name}>`;
    const close = text.indexOf(closing, bodyStart);
    // A tag the stream never closed (an interrupted answer) stays text, as it was sent back to the model.
    if (close === -1) continue;
    pushText(segments, text.slice(textStart, match.index));
    const body = text.slice(bodyStart, close);
    if (name === "thinking") segments.push({ type: "thinking", text: body.trim() });
    else segments.push({ type: "tool", name, ...readParameters(body) });
    textStart = close + closing.length;
    OPENING_TAG.lastIndex = textStart;
  }
  if (segments.length === 0) return undefined;
  pushText(segments, text.slice(textStart));
  return segments;
}

function pushText(segments: TaggedSegment[], text: string): void {
  const trimmed = text.trim();
  if (trimmed !== "") segments.push({ type: "text", text: trimmed });
}

/** A tool tag's parameters `<name>value</name>`, values trimmed as Cline trims them. */
function readParameters(body: string): { input: Record<string, string>; stray: string } {
  const input: Record<string, string> = {};
  let stray = "";
  let position = 0;
  PARAMETER_TAG.lastIndex = 0;
  for (let match = PARAMETER_TAG.exec(body); match !== null; match = PARAMETER_TAG.exec(body)) {
    const name = match[1];
    const valueStart = match.index + match[0].length;
    const closing = `</${name}>`;
    const end = LONG_PARAMETERS.has(name) ? body.lastIndexOf(closing) : body.indexOf(closing, valueStart);
    if (end < valueStart) break;
    stray += body.slice(position, match.index);
    input[name] = body.slice(valueStart, end).trim();
    position = end + closing.length;
    PARAMETER_TAG.lastIndex = position;
  }
  stray += body.slice(position);
  return { input, stray: stray.trim() };
}
