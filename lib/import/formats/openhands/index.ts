/**
 * OpenHands trajectories and event streams (V0 `event_to_dict` events:
 * `{id, timestamp, source, action, args}` and `{..., observation, content,
 * extras, cause}`): the GUI's "Download trajectory" list, the REST API's
 * `{events: [...]}` or `{trajectory: [...]}`, and events one a line (a folder
 * of `events/N.json` joined with `jq -c . events/*.json`).
 */
import { isRecord, type JsonPath } from "../../issues";
import type { DocumentImporter, LinesImporter } from "../../registry";
import { convertEvents } from "./events";
import type { SourceEvent } from "./state";

/** An event as `event_to_dict` writes it: an action with its args, or an observation with its extras. */
export function isOpenHandsEvent(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value) || typeof value.source !== "string") return false;
  if (typeof value.id !== "number" && typeof value.timestamp !== "string") return false;
  return (typeof value.action === "string" && isRecord(value.args)) || (typeof value.observation === "string" && "extras" in value);
}

function isEventList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every(isOpenHandsEvent);
}

/** Where the events of a document are: the document itself, or its `events` / `trajectory` field. */
function eventsOf(value: unknown): { events: unknown[]; key?: string } | undefined {
  if (isEventList(value)) return { events: value };
  if (!isRecord(value)) return undefined;
  for (const key of ["events", "trajectory"]) if (isEventList(value[key])) return { events: value[key] as unknown[], key };
  return undefined;
}

export const openhandsImporter: DocumentImporter = {
  format: "openhands",
  detect(value) {
    return eventsOf(value) !== undefined;
  },
  convert(value, place, context) {
    const found = eventsOf(value);
    const prefix: JsonPath = found?.key === undefined ? place.path : [...place.path, found.key];
    const scope = context.scope(prefix, place.conversationIndex);
    const events: SourceEvent[] = (found?.events ?? []).map((event, index) => ({ value: event as Record<string, unknown>, index }));
    const draft = convertEvents(events, scope);
    if (isRecord(value) && value.has_more === true)
      scope.warn("part-dropped", "the API answer says it has more events (has_more): only this page was imported; ask for the next page with start_id");
    return [draft];
  },
};

export const openhandsLinesImporter: LinesImporter = {
  format: "openhands",
  detectLines(values) {
    // A forced format reads a whole JSON document as one line: the GUI's list is one too.
    return (values.length > 0 && values.every(isOpenHandsEvent)) || (values.length === 1 && eventsOf(values[0]) !== undefined);
  },
  convertLines(records, context) {
    if (records.length === 1 && !isOpenHandsEvent(records[0].value)) return openhandsImporter.convert(records[0].value, { path: [0] }, context);
    const events = records.map((record, index) => ({ value: record.value as Record<string, unknown>, index }));
    return [convertEvents(events, context.scope([]))];
  },
};
