/**
 * E-M3: the one definition of "the same message" (F-4 in lib/formats/SPEC.md),
 * for placing recorded turns, finding where branches diverge, diffing
 * pipeline steps, matching loaded rows and a replay's cached prefix. Agents
 * re-send one message in several spellings, so equality is on what the model
 * reads: role, text, parts, tool calls (arguments as JSON values), the call a
 * result answers, the name. Not compared: `developer` vs `system`, `null` vs
 * `""` assistant text, cache marks, provider extras, provider item ids.
 */
import { hashPair, sortKeys } from "./hash";
import type { ContentPart, Message } from "./messages";

/** Tool arguments compare as JSON values when they parse: `{"a": 1}` and `{"a":1}` are one call. */
function normalArguments(text: string): unknown {
  try {
    return sortKeys(JSON.parse(text));
  } catch {
    return text;
  }
}

/** What of a part the model reads. */
function partKey(part: ContentPart): unknown {
  switch (part.type) {
    case "text":
    case "refusal":
      return [part.type, part.text];
    case "reasoning":
      return [part.type, part.text, part.summary ?? [], part.signature ?? part.redacted ?? part.encrypted ?? null];
    case "image":
      return [part.type, part.source, part.detail ?? null];
    case "audio":
    case "document":
      return [part.type, part.source];
    case "provider":
      return [part.type, part.provider, sortKeys(part.data)];
  }
}

/** The canonical key of a message: equal keys, same message. */
export function messageKey(message: Message): string {
  const content = message.role === "assistant" && message.content === "" ? null : (message.content ?? null);
  const parts = (message.parts ?? []).filter((part) => part.type !== "text").map(partKey);
  return JSON.stringify([
    message.role,
    content,
    parts,
    (message.tool_calls ?? []).map((call) => [call.id, call.function.name, normalArguments(call.function.arguments)]),
    message.tool_call_id ?? null,
    message.name || null,
  ]);
}

/** True when two messages are the same message (F-4). */
export function sameMessage(left: Message, right: Message): boolean {
  return left === right || messageKey(left) === messageKey(right);
}

/** A short hash of `messageKey` (two 53-bit cyrb53 hashes with different seeds), for storing and indexing. */
export function messageFingerprint(message: Message): string {
  return hashPair(messageKey(message), 0x9e3779b9, 0x85ebca6b);
}
