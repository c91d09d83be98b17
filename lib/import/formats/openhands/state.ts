/** The OpenHands conversation being built from events: its chat messages with their facts, and what the events said besides. */
import type { CallFacts, SessionFacts } from "@/lib/formats";
import type { ImportedCompaction } from "../../types";
import type { JsonPath, MessageScope } from "../../issues";
import type { ChatWireMessage } from "../chat-wire";
import { type RunMetrics, eventTime } from "./metrics";

/** One event and where it sits in the input. */
export interface SourceEvent {
  value: Record<string, unknown>;
  /** Index of the event in its array, or of its JSONL line. */
  index: number;
}

/** The conversation being built: chat messages with their facts, and what the events said besides. */
export interface EventsState {
  scope: MessageScope;
  metrics: RunMetrics;
  wire: ChatWireMessage[];
  facts: (CallFacts | undefined)[];
  compactions: ImportedCompaction[];
  markers: { at: number; message: string; path: JsonPath }[];
  skipped: Map<string, number>;
  /** Model responses already written as an assistant message (parallel calls share one). */
  responses: Set<string>;
  /** Ids given to calls of actions without tool_call_metadata, by the action's event id. */
  generated: Map<number, string>;
  userActions: number;
  condenseRequested: boolean;
  session: SessionFacts;
  source: Record<string, unknown>;
  tools?: { value: unknown; path: JsonPath };
}

export function newState(scope: MessageScope, metrics: RunMetrics): EventsState {
  return {
    scope,
    metrics,
    wire: [],
    facts: [],
    compactions: [],
    markers: [],
    skipped: new Map(),
    responses: new Set(),
    generated: new Map(),
    userActions: 0,
    condenseRequested: false,
    session: { agent: "openhands" },
    source: {},
  };
}

export function inIdOrder(events: readonly SourceEvent[]): readonly SourceEvent[] {
  const ids = events.map((event) => event.value.id);
  if (!ids.every((id) => typeof id === "number")) return events;
  const sorted = ids.every((id, index) => index === 0 || (id as number) > (ids[index - 1] as number));
  return sorted ? events : [...events].sort((left, right) => (left.value.id as number) - (right.value.id as number));
}

export function push(state: EventsState, message: Record<string, unknown>, source: JsonPath, facts: CallFacts | undefined): void {
  state.wire.push({ message, source });
  state.facts.push(facts);
}

export function count(state: EventsState, kind: string): void {
  state.skipped.set(kind, (state.skipped.get(kind) ?? 0) + 1);
}

export function timeFacts(event: Record<string, unknown>): CallFacts | undefined {
  const at = eventTime(event.timestamp);
  return at === undefined ? undefined : { at };
}

export function forgottenText(args: Record<string, unknown>): string | undefined {
  if (Array.isArray(args.forgotten_event_ids)) return `events ${args.forgotten_event_ids.join(", ")}`;
  if (typeof args.forgotten_events_start_id === "number") return `events ${args.forgotten_events_start_id}–${String(args.forgotten_events_end_id)}`;
  return undefined;
}

export function addCompaction(
  state: EventsState,
  event: Record<string, unknown>,
  summary: string | undefined,
  forgotten: string | undefined,
  path: JsonPath,
): void {
  const compaction: ImportedCompaction = { at: state.wire.length, trigger: state.condenseRequested ? "manual" : "auto" };
  if (summary !== undefined && summary !== "") compaction.summary = summary;
  const facts = timeFacts(event);
  if (facts !== undefined) compaction.facts = facts;
  state.compactions.push(compaction);
  state.condenseRequested = false;
  const what = forgotten === undefined ? "the earlier history" : forgotten;
  state.markers.push({
    at: state.wire.length,
    path,
    message: `OpenHands condensed the history here: the model no longer saw ${what}${compaction.summary === undefined ? "" : ", but a summary of it"}`,
  });
}
