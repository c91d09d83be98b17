/**
 * OpenHands (V0) events → one conversation, the way OpenHands' conversation
 * memory turns them into model messages: an agent action with
 * `tool_call_metadata` is a tool call of the model response it holds (one
 * assistant message per response, however many actions it started), its
 * observation the result; message actions are user or assistant text; a
 * condensation is a compaction. State changes and empty observations hold no
 * message and are counted in one warning.
 */
import { isRecord, type JsonPath, type MessageScope } from "../../issues";
import type { ConversationDraft } from "../../requests";
import { litellmChatMessage, responseMessage } from "../litellm-message";
import { finishDraft } from "./finish";
import { callFacts, collectMetrics } from "./metrics";
import { type EventsState, type SourceEvent, addCompaction, count, forgottenText, inIdOrder, newState, push, timeFacts } from "./state";

const SKIPPED_ACTIONS = new Set(["change_agent_state", "null", "recall", "pause", "resume", "stop", "start", "condensation_request"]);
const SKIPPED_OBSERVATIONS = new Set(["null", "agent_state_changed", "recall"]);

/** Converts events read from a list, an API answer's `events` or JSONL lines (`scope.prefix` + index is each event's path). */
export function convertEvents(events: readonly SourceEvent[], scope: MessageScope): ConversationDraft {
  const ordered = inIdOrder(events);
  if (ordered !== events) scope.warn("shape-normalised", "the events were not in id order (as a folder of events/N.json lists them): read in id order");
  const state = newState(scope, collectMetrics(events.map((event) => event.value)));
  for (const event of ordered) {
    if (typeof event.value.action === "string") readAction(event, event.value.action, state);
    else if (typeof event.value.observation === "string") readObservation(event, event.value.observation, state);
    else scope.fail(event.index, [], "an OpenHands event needs an action or an observation");
  }
  return finishDraft(state);
}

function readAction({ value: event, index }: SourceEvent, action: string, state: EventsState): void {
  const path = state.scope.pathOf(index);
  const args = isRecord(event.args) ? event.args : {};
  const metadata = event.tool_call_metadata;
  if (SKIPPED_ACTIONS.has(action)) {
    if (action === "condensation_request") state.condenseRequested = true;
    count(state, action);
  } else if (action === "system") readSystem(event, args, path, state);
  else if (action === "condensation") addCompaction(state, event, typeof args.summary === "string" ? args.summary : undefined, forgottenText(args), path);
  else if (isRecord(metadata) && event.source !== "user") readToolAction(event, index, metadata, state);
  else if (action === "message") readMessage(event, args, path, state);
  else if (event.source === "user") {
    // A command the user ran in the terminal: OpenHands shows it to the model as a user message.
    state.userActions += 1;
    const text = typeof event.message === "string" && event.message !== "" ? event.message : `${action} ${JSON.stringify(args)}`;
    push(state, { role: "user", content: text }, path, timeFacts(event));
  } else readUntrackedAction(event, index, action, args, state);
}

function readSystem(event: Record<string, unknown>, args: Record<string, unknown>, path: JsonPath, state: EventsState): void {
  push(state, { role: "system", content: typeof args.content === "string" ? args.content : "" }, path, timeFacts(event));
  if (typeof args.openhands_version === "string") state.session.agentVersion = args.openhands_version;
  if (typeof args.agent_class === "string") state.source.agentClass = args.agent_class;
  if (Array.isArray(args.tools)) state.tools = { value: args.tools, path: [...path, "args", "tools"] };
}

function readToolAction(event: Record<string, unknown>, index: number, metadata: Record<string, unknown>, state: EventsState): void {
  const path = state.scope.pathOf(index, "tool_call_metadata");
  const response = metadata.model_response;
  const message = responseMessage(response);
  if (!isRecord(response) || message === undefined) {
    state.scope.fail(index, ["tool_call_metadata", "model_response"], "tool_call_metadata needs the model_response, with choices[0].message");
    return;
  }
  const responseId = typeof response.id === "string" ? response.id : `event ${index}`;
  if (state.responses.has(responseId)) return;
  state.responses.add(responseId);
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  if (!calls.some((call) => isRecord(call) && call.id === metadata.tool_call_id)) {
    const id = JSON.stringify(metadata.tool_call_id);
    state.scope.fail(index, ["tool_call_metadata", "tool_call_id"], `tool call ${id} is not one of its model response's tool_calls`);
    return;
  }
  const assistant = { ...litellmChatMessage(message), role: "assistant" };
  push(state, assistant, [...path, "model_response", "choices", 0, "message"], callFacts(response, event.timestamp, state.metrics));
}

/** An agent action without tool_call_metadata: OpenHands without function calling. */
function readUntrackedAction(event: Record<string, unknown>, index: number, action: string, args: Record<string, unknown>, state: EventsState): void {
  const path = state.scope.pathOf(index);
  if (action === "finish" || action === "think") {
    const text = [args.thought, args.final_thought, args.message].find((field) => typeof field === "string" && field !== "");
    push(state, { role: "assistant", content: text ?? event.message ?? "" }, path, timeFacts(event));
    return;
  }
  // The action has no call id: one is made from the event id, and the observation it caused answers it.
  const id = `openhands_call_${String(event.id ?? index)}`;
  if (typeof event.id === "number") state.generated.set(event.id, id);
  const { thought, ...rest } = args;
  const call = { id, type: "function", function: { name: action, arguments: JSON.stringify(rest) } };
  const content = typeof thought === "string" && thought !== "" ? thought : null;
  push(state, { role: "assistant", content, tool_calls: [call] }, path, timeFacts(event));
}

function readMessage(event: Record<string, unknown>, args: Record<string, unknown>, path: JsonPath, state: EventsState): void {
  const role = event.source === "user" ? "user" : "assistant";
  const text = typeof args.content === "string" ? args.content : typeof event.message === "string" ? event.message : "";
  const images = Array.isArray(args.image_urls) ? args.image_urls.filter((url): url is string => typeof url === "string" && url !== "") : [];
  const files = Array.isArray(args.file_urls) ? args.file_urls.length : 0;
  const messageIndex = state.wire.length;
  if (files > 0) {
    const message = `${files} attached file${files === 1 ? "" : "s"} (file_urls, paths in the agent's workspace) left out`;
    state.scope.warn("part-dropped", message, { path: [...path, "args", "file_urls"], messageIndex });
  }
  if (images.length > 0 && role === "assistant") {
    state.scope.warn("part-dropped", "an agent message's image_urls left out: assistant messages hold no images", {
      path: [...path, "args", "image_urls"],
      messageIndex,
    });
  }
  const content =
    images.length === 0 || role === "assistant" ? text : [{ type: "text", text }, ...images.map((url) => ({ type: "image_url", image_url: { url } }))];
  push(state, { role, content }, path, timeFacts(event));
}

function readObservation({ value: event, index }: SourceEvent, observation: string, state: EventsState): void {
  const path = state.scope.pathOf(index);
  const content = typeof event.content === "string" ? event.content : "";
  const metadata = event.tool_call_metadata;
  const cause = typeof event.cause === "number" ? state.generated.get(event.cause) : undefined;
  const callId = isRecord(metadata) && typeof metadata.tool_call_id === "string" ? metadata.tool_call_id : cause;
  if (SKIPPED_OBSERVATIONS.has(observation)) count(state, observation);
  else if (observation === "condense") addCompaction(state, event, content, undefined, path);
  else if (callId !== undefined) {
    const name = isRecord(metadata) && typeof metadata.function_name === "string" ? { name: metadata.function_name } : {};
    push(state, { role: "tool", tool_call_id: callId, ...name, content }, path, timeFacts(event));
  }
  // An observation answering no model call (an error, the output of a command the user ran) reaches the model as user text.
  else if (content !== "") push(state, { role: "user", content }, path, timeFacts(event));
  else count(state, `${observation} without content`);
}
