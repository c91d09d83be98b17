/**
 * Gemini CLI's recorded session (`~/.gemini/tmp/<project hash>/chats/
 * session-<time>-<id>.json`): `{sessionId, projectHash, startTime,
 * lastUpdated, messages}`, where a `gemini` message holds its text, thoughts,
 * tool calls (each with its result parts), tokens and model. Rewritten as
 * Gemini contents (a model turn, then a turn of its calls' responses) and read
 * by the Gemini reader; `info`, `error` and `warning` messages are the CLI's
 * own notices and are skipped.
 */
import type { Message } from "@/lib/context/messages";
import { type CallFacts, isoTime, readGeminiContent, readReportedUsage } from "@/lib/formats";
import { isRecord, type JsonPath } from "../../issues";
import type { ImportContext, ImportPlace } from "../../registry";
import { readMapped, type ConversationDraft } from "../../requests";

export function isCliSession(value: unknown): value is Record<string, unknown> & { messages: unknown[] } {
  return isRecord(value) && typeof value.sessionId === "string" && typeof value.projectHash === "string" && Array.isArray(value.messages);
}

/** One Gemini content built from a record, with the facts of the messages it becomes (the i-th fact for the i-th message). */
interface BuiltContent {
  content: { role: string; parts: unknown[] };
  source: JsonPath;
  facts: (CallFacts | undefined)[];
}

interface Notes {
  skipped: Map<string, number>;
  unanswered: number;
  duplicates: number;
  wrapped: number;
  answered: Set<string>;
}

export function convertCliSession(session: Record<string, unknown> & { messages: unknown[] }, place: ImportPlace, context: ImportContext): ConversationDraft {
  const scope = context.scope([...place.path, "messages"], place.conversationIndex);
  const notes: Notes = { skipped: new Map(), unanswered: 0, duplicates: 0, wrapped: 0, answered: new Set() };
  const built = session.messages.flatMap((record, index) => buildContents(record, [...place.path, "messages", index], notes));
  const starts: number[] = [];
  const messages = readMapped(
    scope,
    "gemini",
    built.map((entry) => entry.source),
    (conversion) => {
      const read: Message[] = [];
      built.forEach((entry, index) => {
        starts.push(read.length);
        readGeminiContent(entry.content, [index], index, conversion, read);
      });
      return read;
    },
  );
  const facts = messages.map((_, position) => {
    const owner = starts.findLastIndex((start) => start <= position);
    return owner === -1 ? undefined : built[owner].facts[Math.min(position - starts[owner], built[owner].facts.length - 1)];
  });
  if (notes.unanswered > 0) scope.warn("part-approximated", `${notes.unanswered} tool calls have no recorded result: each was answered with its status`);
  if (notes.wrapped > 0) scope.warn("shape-normalised", `${notes.wrapped} tool calls' args were not an object: each was kept as {value: args}`);
  if (notes.duplicates > 0) scope.warn("part-dropped", `${notes.duplicates} function responses repeat a tool call's recorded result: left out`);
  if (notes.skipped.size > 0) {
    const kinds = [...notes.skipped].map(([kind, times]) => `${kind} ×${times}`).join(", ");
    scope.warn("entry-skipped", `skipped the CLI's own notices (${kinds})`);
  }
  const draft: ConversationDraft = {
    format: "gemini-cli",
    messages,
    warnings: scope.warnings,
    session: { agent: "gemini-cli", sessionId: String(session.sessionId) },
  };
  if (facts.some((entry) => entry !== undefined)) draft.facts = facts;
  const source: Record<string, unknown> = {};
  for (const key of ["projectHash", "startTime", "lastUpdated", "summary", "kind", "directories"]) if (session[key] !== undefined) source[key] = session[key];
  draft.source = source;
  if (typeof session.summary === "string" && session.summary.trim() !== "") draft.title = session.summary.trim();
  return draft;
}

function buildContents(record: unknown, source: JsonPath, notes: Notes): BuiltContent[] {
  const type = isRecord(record) ? String(record.type) : "not an object";
  if (!isRecord(record) || (type !== "user" && type !== "gemini")) {
    notes.skipped.set(type, (notes.skipped.get(type) ?? 0) + 1);
    return [];
  }
  const at = isoTime(record.timestamp);
  if (type === "user") {
    const parts = partsOf(record.content).filter((part) => !repeatsResult(part, notes));
    return parts.length === 0 ? [] : [{ content: { role: "user", parts }, source, facts: [at === undefined ? undefined : { at }] }];
  }
  const calls = Array.isArray(record.toolCalls) ? record.toolCalls.filter(isRecord) : [];
  const thoughts = Array.isArray(record.thoughts) ? record.thoughts.filter(isRecord).map(thoughtPart) : [];
  const callParts = calls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: argsOf(call.args, notes) } }));
  const facts: CallFacts = {};
  if (at !== undefined) facts.at = at;
  if (typeof record.model === "string") facts.model = record.model;
  const usage = readReportedUsage(record.tokens);
  if (usage !== undefined) facts.usage = usage;
  const model: BuiltContent = { content: { role: "model", parts: [...thoughts, ...partsOf(record.content), ...callParts] }, source, facts: [facts] };
  if (calls.length === 0) return [model];
  const responses = calls.flatMap((call) => responseParts(call, notes));
  const times = calls.map((call) => {
    const time = isoTime(call.timestamp);
    return time === undefined ? undefined : { at: time };
  });
  return [model, { content: { role: "user", parts: responses }, source: [...source, "toolCalls"], facts: times }];
}

function argsOf(args: unknown, notes: Notes): Record<string, unknown> {
  if (isRecord(args)) return args;
  if (args === undefined || args === null) return {};
  notes.wrapped += 1;
  return { value: args };
}

/** A `PartListUnion`: a string, one part, or a list of both. */
function partsOf(content: unknown): unknown[] {
  const list = Array.isArray(content) ? content : content === undefined || content === null || content === "" ? [] : [content];
  return list.map((part) => (typeof part === "string" ? { text: part } : part));
}

/** The CLI keeps a thought as its bold subject and the rest; written back the way the model wrote it. */
function thoughtPart(thought: Record<string, unknown>): Record<string, unknown> {
  const subject = typeof thought.subject === "string" ? thought.subject : "";
  const description = typeof thought.description === "string" ? thought.description : "";
  return { text: subject === "" ? description : `**${subject}**\n\n${description}`, thought: true };
}

/** A tool call's result as response parts, each carrying the call's id and name. */
function responseParts(call: Record<string, unknown>, notes: Notes): unknown[] {
  const identity = { id: call.id, name: call.name };
  if (typeof call.id === "string") notes.answered.add(call.id);
  if (call.result === undefined || call.result === null) {
    notes.unanswered += 1;
    return [{ functionResponse: { ...identity, response: { status: call.status ?? "unknown" } } }];
  }
  if (typeof call.result === "string") return [{ functionResponse: { ...identity, response: { output: call.result } } }];
  const parts = partsOf(call.result);
  if (!parts.some((part) => isRecord(part) && isRecord(part.functionResponse)))
    return [{ functionResponse: { ...identity, response: { output: JSON.stringify(call.result) } } }];
  return parts.map((part) =>
    isRecord(part) && isRecord(part.functionResponse) ? { ...part, functionResponse: { ...identity, ...part.functionResponse } } : part,
  );
}

/** Some versions also write a call's response as a user message after it: the call's own result already holds it. */
function repeatsResult(part: unknown, notes: Notes): boolean {
  const response = isRecord(part) && isRecord(part.functionResponse) ? part.functionResponse : undefined;
  if (response === undefined || typeof response.id !== "string" || !notes.answered.has(response.id)) return false;
  notes.duplicates += 1;
  return true;
}
