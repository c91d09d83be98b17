// Loads the wire-format samples in tests/fixtures/formats (see its README for sources and licences).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Message } from "@/lib/context/messages";
import type { FormatWarning } from "../types";

const folder = path.join(import.meta.dirname, "..", "..", "..", "tests", "fixtures", "formats");

/** A fixture file, parsed (JSONL files as an array of their lines). */
export function loadFixture(name: string): unknown {
  const text = readFileSync(path.join(folder, name), "utf8");
  if (name.endsWith(".jsonl"))
    return text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as unknown);
  return JSON.parse(text) as unknown;
}

/** The counts `manifest.json` gives for a file. */
export interface FixtureCounts {
  messages: number;
  toolCalls: number;
  toolResults: number;
  thinking: number;
  images: number;
}

export function manifestCounts(name: string): FixtureCounts {
  const manifest = loadFixture("manifest.json") as Record<string, { in: FixtureCounts }>;
  return manifest[name].in;
}

const SERVER_RESULT = /_tool_result$|^mcp_tool_result$/;

/** Counts in canonical messages: provider-run tool calls and results (kept as provider parts) count as calls and results. */
export function canonicalCounts(messages: readonly Message[]): Omit<FixtureCounts, "messages"> {
  const counts = { toolCalls: 0, toolResults: 0, thinking: 0, images: 0 };
  for (const message of messages) {
    counts.toolCalls += message.tool_calls?.length ?? 0;
    if (message.role === "tool") counts.toolResults += 1;
    for (const part of message.parts ?? []) {
      if (part.type === "reasoning") counts.thinking += 1;
      if (part.type === "image" || part.type === "audio" || part.type === "document") counts.images += 1;
      if (part.type === "provider" && part.data.type === "server_tool_use") counts.toolCalls += 1;
      if (part.type === "provider" && SERVER_RESULT.test(String(part.data.type))) counts.toolResults += 1;
    }
  }
  return counts;
}

/**
 * F-5: a tool result's `name`, when it is the name of the call it answers, is
 * implied by the call; formats that hold no name (Anthropic, Responses) or
 * always hold one (Gemini) differ only there.
 */
export function withoutImpliedNames(messages: readonly Message[]): Message[] {
  const names = new Map<string, string>();
  return messages.map((message) => {
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
    if (message.role !== "tool" || message.name === undefined || names.get(message.tool_call_id ?? "") !== message.name) return message;
    const { name: _implied, ...rest } = message;
    return rest;
  });
}

/** Indices of messages a writer warned about. */
export function warnedIndices(warnings: readonly FormatWarning[]): Set<number> {
  return new Set(warnings.flatMap((warning) => (warning.messageIndex === undefined ? [] : [warning.messageIndex])));
}

/**
 * F-9: formats that hold tool arguments as objects (Anthropic, Gemini) give
 * back the same JSON value, serialized compactly.
 */
export function withCompactArguments(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (message.tool_calls === undefined) return message;
    const compact = (text: string) => {
      try {
        return JSON.stringify(JSON.parse(text));
      } catch {
        return text;
      }
    };
    return {
      ...message,
      tool_calls: message.tool_calls.map((call) => ({ ...call, function: { ...call.function, arguments: compact(call.function.arguments) } })),
    };
  });
}

/** Messages as a trip through another format must give them back (F-5, F-9). */
export function comparable(messages: readonly Message[]): Message[] {
  return withCompactArguments(withoutImpliedNames(messages));
}
