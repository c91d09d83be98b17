/**
 * Reasoning in OpenAI Chat, which has no standard field for it: the
 * `reasoning_details` convention of OpenRouter (F-C5 in SPEC.md), so reasoning
 * read from any format survives a trip through a chat file. `reasoning_content`
 * (DeepSeek, vLLM) and `reasoning` (a plain string) are read too.
 */
import type { ReasoningPart } from "@/lib/context/messages";
import { withExtras } from "../canonical";
import { isRecord, type ConversionContext } from "../context";
import type { JsonPath } from "../types";

const ANTHROPIC_FORMAT = "anthropic-claude-v1";
const OPENAI_FORMAT = "openai-responses-v1";

/** `reasoning_details` entries → reasoning parts; entries sharing an `index` are one part. */
export function readReasoningDetails(details: unknown, context: ConversionContext, path: JsonPath, at: number): ReasoningPart[] {
  if (!Array.isArray(details)) {
    context.fail(path, "reasoning_details must be an array of reasoning entries", at);
    return [];
  }
  const parts: ReasoningPart[] = [];
  const byIndex = new Map<unknown, ReasoningPart>();
  details.forEach((entry: unknown, entryIndex) => {
    if (!isRecord(entry) || typeof entry.type !== "string") {
      context.fail([...path, entryIndex], "a reasoning entry must be an object with a string type", at);
      return;
    }
    let part = entry.index === undefined ? undefined : byIndex.get(entry.index);
    if (part === undefined) {
      part = { type: "reasoning", text: "" };
      if (typeof entry.id === "string") part.id = entry.id;
      parts.push(part);
      if (entry.index !== undefined) byIndex.set(entry.index, part);
    }
    readEntry(entry, part, context, [...path, entryIndex], at);
  });
  return parts;
}

function readEntry(entry: Record<string, unknown>, part: ReasoningPart, context: ConversionContext, path: JsonPath, at: number): void {
  const need = (field: string) => {
    const value = entry[field];
    if (typeof value === "string") return value;
    context.fail([...path, field], `a ${String(entry.type)} entry needs a string ${field}`, at);
    return undefined;
  };
  // The format of encrypted entries follows from which field holds them; only text and summaries keep theirs.
  const textual = entry.type === "reasoning.text" || entry.type === "reasoning.summary";
  if (textual && typeof entry.format === "string" && entry.format !== "unknown" && part.extras === undefined) {
    part.extras = withExtras(undefined, "openai", { format: entry.format });
  }
  if (entry.type === "reasoning.text") {
    part.text = need("text") ?? "";
    if (typeof entry.signature === "string") part.signature = entry.signature;
  } else if (entry.type === "reasoning.summary") {
    const summary = need("summary");
    if (summary !== undefined) part.summary = [...(part.summary ?? []), summary];
  } else if (entry.type === "reasoning.encrypted") {
    const data = need("data");
    if (data !== undefined && entry.format === ANTHROPIC_FORMAT) part.redacted = data;
    else if (data !== undefined) part.encrypted = data;
  } else {
    context.fail(
      [...path, "type"],
      `unknown reasoning entry type ${JSON.stringify(entry.type)}: expected reasoning.text, reasoning.summary or reasoning.encrypted`,
      at,
    );
  }
}

/** Reasoning parts → `reasoning_details` entries, one `index` per part. */
export function writeReasoningDetails(parts: readonly ReasoningPart[]): Record<string, unknown>[] {
  const entries: Record<string, unknown>[] = [];
  parts.forEach((part, index) => {
    const common = (format?: string): Record<string, unknown> => {
      const entry: Record<string, unknown> = {};
      if (part.id !== undefined) entry.id = part.id;
      const known = format ?? part.extras?.openai?.format;
      if (typeof known === "string") entry.format = known;
      entry.index = index;
      return entry;
    };
    for (const summary of part.summary ?? []) entries.push({ type: "reasoning.summary", summary, ...common() });
    const opaque = part.redacted !== undefined || part.encrypted !== undefined;
    if (part.text !== "" || part.signature !== undefined || (!opaque && part.summary === undefined)) {
      const entry: Record<string, unknown> = { type: "reasoning.text", text: part.text };
      if (part.signature !== undefined) entry.signature = part.signature;
      entries.push({ ...entry, ...common() });
    }
    if (part.redacted !== undefined) entries.push({ type: "reasoning.encrypted", data: part.redacted, ...common(ANTHROPIC_FORMAT) });
    if (part.encrypted !== undefined) entries.push({ type: "reasoning.encrypted", data: part.encrypted, ...common(OPENAI_FORMAT) });
  });
  return entries;
}
