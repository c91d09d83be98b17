import { jsonObjectsOf, type FileEdges } from "./edges";
import type { SessionPlace } from "./layout";
import type { LocalAgent } from "./types";

/** What the first and last lines of a session file say about it. */
export interface SessionFacts {
  sessionId: string | null;
  cwd: string | null;
  model: string | null;
  /** ISO time of the first line with a time. */
  startedAt: string | null;
}

type Line = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : null);
const objectOf = (value: unknown): Line | null => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Line) : null);

function isoOf(value: unknown): string | null {
  const raw = text(value);
  if (raw === null) return null;
  const time = Date.parse(raw);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function first<T>(lines: readonly Line[], pick: (line: Line) => T | null): T | null {
  for (const line of lines) {
    const value = pick(line);
    if (value !== null) return value;
  }
  return null;
}

function last<T>(lines: readonly Line[], pick: (line: Line) => T | null): T | null {
  return first([...lines].reverse(), pick);
}

// Claude Code writes "<synthetic>" as the model of messages it made up itself (an interrupted turn).
const realModel = (model: string | null) => (model === null || model.startsWith("<") ? null : model);

function claudeCodeFacts(lines: Line[], tail: Line[]): SessionFacts {
  const modelOf = (line: Line) => realModel(text(objectOf(line.message)?.model));
  return {
    sessionId: first(lines, (line) => text(line.sessionId)),
    cwd: first(lines, (line) => text(line.cwd)),
    model: last(tail, modelOf) ?? last(lines, modelOf),
    startedAt: first(lines, (line) => isoOf(line.timestamp)),
  };
}

function codexFacts(lines: Line[], tail: Line[]): SessionFacts {
  // Rollouts before the `type`/`payload` envelope wrote the session's fields on the first line itself.
  const payloadOf = (line: Line) => objectOf(line.payload) ?? line;
  const meta = first(lines, (line) => (line.type === "session_meta" || (line.type === undefined && text(line.id)) ? payloadOf(line) : null));
  const modelOf = (line: Line) => text(payloadOf(line).model);
  return {
    sessionId: text(meta?.id),
    cwd: text(meta?.cwd) ?? first(lines, (line) => text(payloadOf(line).cwd)),
    model: last(tail, modelOf) ?? last(lines, modelOf),
    startedAt: isoOf(meta?.timestamp) ?? first(lines, (line) => isoOf(line.timestamp)),
  };
}

/** A field of a JSON document read from its raw text: a big Gemini CLI session is one document, read at its ends only. */
function rawField(raw: string, field: string, which: "first" | "last"): string | null {
  const pattern = new RegExp(`"${field}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`, "g");
  const matches = [...raw.matchAll(pattern)].map((match) => match[1]);
  const found = which === "first" ? matches[0] : matches.at(-1);
  return found === undefined ? null : found;
}

function geminiFacts(edges: FileEdges, lines: Line[], tail: Line[]): SessionFacts {
  const documentText = `${edges.headText}\n${edges.tailText}`;
  const modelOf = (line: Line) => (line.type === "gemini" ? text(line.model) : null);
  const messagesOf = (line: Line) => (Array.isArray(line.messages) ? (line.messages as unknown[]).map(objectOf).filter((item) => item !== null) : []);
  // A whole-document session (`.json`) parses as one line when it was read whole.
  const all = [...lines, ...lines.flatMap(messagesOf)];
  return {
    sessionId: first(lines, (line) => text(line.sessionId)) ?? rawField(edges.headText, "sessionId", "first"),
    cwd: null,
    model: last(tail, modelOf) ?? last(all, modelOf) ?? rawField(documentText, "model", "last"),
    startedAt: first(lines, (line) => isoOf(line.startTime)) ?? isoOf(rawField(edges.headText, "startTime", "first")),
  };
}

/** Reads a session's id, working folder, model and start from the ends of its file (LA1). */
export function describeSessionEdges(agent: LocalAgent, place: SessionPlace, edges: FileEdges): SessionFacts {
  // A Gemini CLI `.json` session is one (pretty-printed) document: whole, it parses at once; else its raw fields are read.
  const parsedWhole = agent === "gemini-cli" && edges.whole ? jsonObjectsOf([edges.headText]) : [];
  const lines = parsedWhole.length === 1 ? parsedWhole : jsonObjectsOf(edges.head);
  const tail = jsonObjectsOf(edges.tail);
  if (place.kind === "checkpoint") return { sessionId: null, cwd: null, model: null, startedAt: null };
  if (agent === "claude-code") return claudeCodeFacts(lines, tail);
  if (agent === "codex") return codexFacts(lines, tail);
  return geminiFacts(edges, lines, tail);
}
