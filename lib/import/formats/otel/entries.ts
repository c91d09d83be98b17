/**
 * OpenLLMetry's indexed attributes of one span, gathered per message: the
 * role, the content (a list held as its JSON is read back), the tool call id
 * and the calls, each with the path it came from.
 */
import { cyrb53 } from "@/lib/context/hash";
import { isRecord, type JsonPath } from "../../issues";
import type { Span } from "./spans";

export interface Call {
  id: string;
  name?: unknown;
  arguments?: unknown;
}

export interface Entry {
  role?: string;
  content: unknown;
  toolCallId?: string;
  /** OpenAI's refusal, written in place of the content. */
  refusal?: string;
  calls: Call[];
  source: JsonPath;
}

export const FAMILIES = {
  prompt: ["gen_ai.prompt", "llm.prompts"],
  completion: ["gen_ai.completion", "llm.completions"],
};

/** True when the span holds indexed prompt or completion attributes. */
export function hasIndexedMessages(span: Span): boolean {
  return [...FAMILIES.prompt, ...FAMILIES.completion].some((prefix) => indices(span, prefix).length > 0);
}

function indices(span: Span, prefix: string): number[] {
  const found = new Set<number>();
  const pattern = new RegExp(`^${prefix.replace(/\./g, "\\.")}\\.(\\d+)\\.`);
  for (const key of span.attributes.keys()) {
    const match = pattern.exec(key);
    if (match !== null) found.add(Number(match[1]));
  }
  return [...found].sort((left, right) => left - right);
}

/**
 * Ids for calls written without one, the same in every span that repeats
 * the call: a hash of its name and arguments and how many such calls came
 * before it in the span's messages.
 */
export class CallIds {
  readonly generated: { id: string; path: JsonPath }[] = [];
  private readonly seen = new Map<string, number>();

  idOf(id: unknown, name: unknown, args: unknown, source: JsonPath): string {
    if (typeof id === "string" && id !== "") return id;
    const key = JSON.stringify([name, args]);
    const count = this.seen.get(key) ?? 0;
    this.seen.set(key, count + 1);
    const made = `call_${cyrb53(key, 0).toString(36)}_${count}`;
    this.generated.push({ id: made, path: source });
    return made;
  }
}

export function entries(span: Span, family: readonly string[], ids: CallIds): Entry[] {
  const prefix = family.find((candidate) => indices(span, candidate).length > 0);
  if (prefix === undefined) return [];
  return indices(span, prefix).map((index) => {
    const key = `${prefix}.${index}`;
    const get = (field: string) => span.attributes.get(`${key}.${field}`);
    const firstKey = [...span.attributes.keys()].find((name) => name.startsWith(`${key}.`)) ?? key;
    const callIndices = indices(span, `${key}.tool_calls`);
    const entry: Entry = {
      // A completion-style prompt (`gen_ai.prompt.0.user`) is the user's text.
      role: typeof get("role")?.value === "string" ? (get("role")?.value as string) : get("user") === undefined ? undefined : "user",
      content: parseBlocks(get("content")?.value ?? get("user")?.value),
      calls: callIndices.map((call) => {
        const name = get(`tool_calls.${call}.name`);
        const args = get(`tool_calls.${call}.arguments`)?.value;
        return { id: ids.idOf(get(`tool_calls.${call}.id`)?.value, name?.value, args, name?.path ?? span.path), name: name?.value, arguments: args };
      }),
      source: (get("role") ?? get("content") ?? span.attributes.get(firstKey))?.path ?? span.path,
    };
    const toolCallId = get("tool_call_id")?.value;
    if (typeof toolCallId === "string") entry.toolCallId = toolCallId;
    const refusal = get("refusal")?.value;
    if (typeof refusal === "string") entry.refusal = refusal;
    return entry;
  });
}

/** Content that was a list of parts or blocks is held as its JSON: read it back; anything else stays as it is. */
function parseBlocks(value: unknown): unknown {
  if (typeof value !== "string" || !value.trimStart().startsWith("[")) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every((block) => isRecord(block) && typeof block.type === "string") ? parsed : value;
  } catch {
    return value;
  }
}

/**
 * OpenLLMetry keeps neither the name nor a call id of a legacy `function`
 * result: each becomes the tool result of the oldest call not answered yet.
 */
export function pairFunctionResults(list: Entry[]): { id: string; path: JsonPath }[] {
  const unanswered: string[] = [];
  const paired: { id: string; path: JsonPath }[] = [];
  for (const entry of list) {
    unanswered.push(...entry.calls.map((call) => call.id));
    const answered = entry.toolCallId === undefined ? -1 : unanswered.indexOf(entry.toolCallId);
    if (answered >= 0) unanswered.splice(answered, 1);
    const oldest = unanswered[0];
    if (entry.toolCallId === undefined && entry.role === "function" && oldest !== undefined) {
      unanswered.shift();
      entry.role = "tool";
      entry.toolCallId = oldest;
      paired.push({ id: oldest, path: entry.source });
    }
  }
  return paired;
}
