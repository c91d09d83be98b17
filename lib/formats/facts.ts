/**
 * What a source says about a session besides its messages: when each call
 * happened, the model that answered, the usage the provider reported and the
 * ids it gave (`CallFacts`), and which agent ran where (`SessionFacts`).
 * Imports, the recording proxy and exports share these shapes (F-SF1–F-SF3 in
 * SPEC.md); nothing here counts tokens, it only reads what was reported.
 */

import { readReportedUsage, type ReportedUsage } from "./reported-usage";

/** One model call's facts as a source recorded them; every field is optional because sources differ (F-SF2). */
export interface CallFacts {
  /** ISO 8601 time the message was written or the call answered. */
  at?: string;
  model?: string;
  usage?: ReportedUsage;
  /** The provider's request id (`req_…`), or the agent's own id for the call. */
  requestId?: string;
  /** The provider's message or response id (`msg_…`, `resp_…`, `chatcmpl-…`). */
  responseId?: string;
  stopReason?: string;
  latencyMs?: number;
}

/** Which agent wrote a session, and where (F-SF3). */
export interface SessionFacts {
  /** The agent's name as its own files say it: "claude-code", "codex", "gemini-cli", "openhands", … */
  agent?: string;
  agentVersion?: string;
  cwd?: string;
  gitBranch?: string;
  /** The session id the agent gave it: re-importing the same session appends to it. */
  sessionId?: string;
}

const CALL_FACT_KEYS = ["at", "model", "usage", "requestId", "responseId", "stopReason", "latencyMs"] as const;

/**
 * The call facts kept in a stored message's metadata (F-SF2). Rows the proxy
 * wrote before usage was normalised hold the provider's object as `usage`:
 * it is read again here, so old rows read as new ones.
 */
export function callFactsOf(metadata: Readonly<Record<string, unknown>> | null | undefined): CallFacts | undefined {
  if (!metadata) return undefined;
  const facts: CallFacts = {};
  if (typeof metadata.at === "string") facts.at = metadata.at;
  if (typeof metadata.model === "string") facts.model = metadata.model;
  const reported = readReportedUsage(metadata.usage);
  if (reported !== undefined) facts.usage = reported;
  if (typeof metadata.requestId === "string") facts.requestId = metadata.requestId;
  if (typeof metadata.responseId === "string") facts.responseId = metadata.responseId;
  const stop = metadata.stopReason ?? metadata.finishReason;
  if (typeof stop === "string") facts.stopReason = stop;
  if (typeof metadata.latencyMs === "number") facts.latencyMs = metadata.latencyMs;
  return Object.keys(facts).length === 0 ? undefined : facts;
}

/** `facts` as metadata fields, to merge into what a message is stored with. */
export function callFactsMetadata(facts: CallFacts | undefined): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (facts === undefined) return fields;
  for (const key of CALL_FACT_KEYS) if (facts[key] !== undefined) fields[key] = facts[key];
  return fields;
}

/** The first ISO time in a value (a number is read as epoch seconds or milliseconds), or undefined. */
export function isoTime(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) {
    const milliseconds = value < 1e12 ? value * 1000 : value;
    const date = new Date(milliseconds);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
