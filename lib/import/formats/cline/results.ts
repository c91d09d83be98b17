/**
 * Cline sends a tool's outcome back as user text, not as a tool_result block:
 * `[read_file for 'a.ts'] Result:` followed by the output (one block in newer
 * versions, the output in the blocks after it in older ones), or a sentence
 * saying why the tool did not run. Each such text answers the next call of the
 * assistant turn before it, in order: Cline runs a turn's tools one after the
 * other and writes one outcome for each.
 */
import { isRecord } from "../../issues";

const OUTCOME_STARTS = [
  /^\[([a-z][\w-]*)(?:\]| for [\s\S]*?\]) Result:/,
  /^Tool \[([a-z][\w-]*)\] was not executed because/,
  /^Skipping tool \[([a-z][\w-]*)/,
  /^Tool \[([a-z][\w-]*)[\s\S]*?\] was interrupted and not executed/,
  /^(?:Skipping tool|Tool was interrupted and not executed) due to user rejecting a previous tool\. \[([a-z][\w-]*)/,
];

/** The tool a user text block reports the outcome of, or undefined when it reports none. */
export function outcomeTool(block: unknown): string | undefined {
  if (!isRecord(block) || block.type !== "text" || typeof block.text !== "string") return undefined;
  for (const start of OUTCOME_STARTS) {
    const match = start.exec(block.text);
    if (match !== null) return match[1];
  }
  return undefined;
}

/** Cline appends the editor's state to every user turn; it is not part of a tool's output. */
function isEnvironmentDetails(block: unknown): boolean {
  return isRecord(block) && block.type === "text" && typeof block.text === "string" && block.text.trimStart().startsWith("<environment_details>");
}

export interface PendingCall {
  id: string;
  name: string;
}

/**
 * A user turn's blocks with each outcome text (and the output blocks after
 * it) turned into a tool_result for the call at the same position; the other
 * blocks follow, unchanged. `paired` counts the results made; a call no
 * outcome answers (the task was interrupted or ended there) gets an empty
 * result, counted in `filled`, so the call is kept.
 */
export function pairOutcomes(blocks: readonly unknown[], calls: readonly PendingCall[]): { blocks: unknown[]; paired: number; filled: number } {
  if (calls.length === 0 || blocks.some((block) => isRecord(block) && block.type === "tool_result")) return { blocks: [...blocks], paired: 0, filled: 0 };
  const results: Record<string, unknown>[] = [];
  const rest: unknown[] = [];
  let open: unknown[] | undefined;
  for (const block of blocks) {
    if (outcomeTool(block) !== undefined && results.length < calls.length) {
      open = [block];
      results.push({ type: "tool_result", tool_use_id: calls[results.length].id, content: open });
    } else if (open !== undefined && !isEnvironmentDetails(block) && isRecord(block) && (block.type === "text" || block.type === "image")) {
      open.push(block);
    } else {
      open = undefined;
      rest.push(block);
    }
  }
  const paired = results.length;
  for (const call of calls.slice(paired)) results.push({ type: "tool_result", tool_use_id: call.id, content: [] });
  return { blocks: [...results, ...rest], paired, filled: calls.length - paired };
}

const OUTCOME_LINE =
  /^(?:\[[a-z][\w-]*(?:\]| for [^\n]*?\]) Result:|Tool \[[a-z][\w-]*[^\n]*?\] was (?:not executed|interrupted)|(?:Skipping tool|Tool was interrupted and not executed)\b)/gm;

/**
 * The outcomes in the text of a request (`api_req_started.request` in the
 * panel: the user turn's blocks joined), in order, each up to the next one or
 * to the environment details.
 */
export function outcomesInRequest(request: string): { tool: string | undefined; text: string }[] {
  const details = request.indexOf("<environment_details>");
  const text = details === -1 ? request : request.slice(0, details);
  const starts = [...text.matchAll(OUTCOME_LINE)].map((match) => match.index);
  return starts.map((start, position) => {
    const outcome = text.slice(start, starts[position + 1] ?? text.length).trimEnd();
    return { tool: outcomeTool({ type: "text", text: outcome }), text: outcome };
  });
}
