/** The OpenHands conversation read: its chat messages through the chat reader, then the warnings for what the events held besides. */
import { readChatTools } from "@/lib/formats";
import { readWithScope, type ConversationDraft } from "../../requests";
import { readChatWire } from "../chat-wire";
import type { EventsState } from "./state";

export function finishDraft(state: EventsState): ConversationDraft {
  const { scope } = state;
  const messages = readChatWire(scope, state.wire);
  const last = Math.max(0, messages.length - 1);
  for (const marker of state.markers) scope.warn("marker", marker.message, { messageIndex: Math.min(marker.at, last), path: marker.path });
  if (state.generated.size > 0)
    scope.warn(
      "call-id-generated",
      `${state.generated.size} action${state.generated.size === 1 ? "" : "s"} had no tool_call_metadata (no function calling): each got the id openhands_call_<event id>, answered by the observation it caused`,
    );
  if (state.userActions > 0)
    scope.warn(
      "part-approximated",
      `${state.userActions} action${state.userActions === 1 ? "" : "s"} the user ran (not the model) became user messages, as OpenHands shows them to the model`,
    );
  if (state.skipped.size > 0) {
    const kinds = [...state.skipped].map(([kind, times]) => `${kind} ×${times}`).join(", ");
    const total = [...state.skipped.values()].reduce((sum, times) => sum + times, 0);
    scope.warn("entry-skipped", `skipped ${total} event${total === 1 ? "" : "s"} that hold no message (${kinds})`);
  }
  const draft: ConversationDraft = { format: "openhands", messages, warnings: scope.warnings, session: state.session };
  // The chat reader reads one message per event it is given; on a refusal the counts differ and the import fails anyway.
  if (messages.length === state.facts.length) draft.facts = state.facts;
  if (state.compactions.length > 0) draft.compactions = state.compactions;
  const tools = state.tools;
  if (tools !== undefined) draft.tools = readWithScope(scope, "openai-chat", tools.path, (conversion) => readChatTools(tools.value, conversion, []));
  const source = { ...state.source };
  if (state.metrics.totals !== undefined) source.llmMetrics = state.metrics.totals;
  if (Object.keys(source).length > 0) draft.source = source;
  return draft;
}
