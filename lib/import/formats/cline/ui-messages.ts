/**
 * Cline's `ui_messages.json` (beside `api_conversation_history.json`): the
 * chat panel's entries `{ts, type: "say" | "ask", say | ask, text}`. The task
 * and the user's feedback become user turns; each `api_req_started` opens an
 * assistant turn (its JSON holds the call's tokens and cost) of the reasoning,
 * text and tools that follow it. Tool entries become calls with generated ids;
 * their results are what the panel recorded (a command's output, a listing,
 * an MCP response, the answer to a question). Read through the Anthropic reader.
 */
import { isRecord } from "../../issues";
import type { DocumentImporter } from "../../registry";
import type { ConversationDraft } from "../../requests";
import { readAnthropicWire } from "../anthropic-wire";
import { UiTranscript } from "./ui-transcript";

export const clineUiImporter: DocumentImporter = {
  format: "cline-ui",
  detect(value) {
    return (
      Array.isArray(value) &&
      value.length > 0 &&
      value.every((entry) => isRecord(entry) && (entry.type === "say" || entry.type === "ask") && typeof entry.ts === "number") &&
      value.some((entry) => typeof entry.say === "string" || typeof entry.ask === "string")
    );
  },
  convert(value, place, context) {
    const scope = context.scope(place.path, place.conversationIndex);
    const transcript = new UiTranscript(place.path);
    (value as Record<string, unknown>[]).forEach((entry, index) => transcript.add(entry, index));
    transcript.end();
    const { messages, starts } = readAnthropicWire(scope, transcript.wire);
    const at = (wireIndex: number) => (wireIndex < starts.length ? starts[wireIndex] : undefined);
    const { skipped, generated, empty, paired } = transcript;
    if (generated.count > 0)
      scope.warn("call-id-generated", `${generated.count} tool entries carry no call id: each became a tool call with an id from its entry`, {
        messageIndex: at(generated.first ?? 0),
      });
    if (paired.count > 0)
      scope.warn(
        "paired-by-position",
        `${paired.count} tool results were taken from the text of the next API request ("[tool] Result:"): each answers the call at the same position in the turn before`,
        { messageIndex: at(paired.first ?? 0) },
      );
    if (empty.count > 0)
      scope.warn(
        "part-approximated",
        `${empty.count} tool results are not in ui_messages.json (the panel shows the call, not what the model was sent): imported empty; api_conversation_history.json holds them`,
        { messageIndex: at(empty.first ?? 0) },
      );
    if (skipped.size > 0) {
      const kinds = [...skipped].map(([kind, times]) => `${kind} ×${times}`).join(", ");
      const total = [...skipped.values()].reduce((sum, times) => sum + times, 0);
      scope.warn("entry-skipped", `skipped ${total} panel entries that hold no message (${kinds})`);
    }
    const draft: ConversationDraft = { format: "cline-ui", messages, warnings: scope.warnings, session: transcript.session() };
    const facts = transcript.wireFacts.flatMap((facts, wireIndex) => {
      const end = wireIndex + 1 < starts.length ? starts[wireIndex + 1] : messages.length;
      return Array.from({ length: Math.max(0, end - starts[wireIndex]) }, (_, offset) =>
        offset === 0 ? facts : facts?.at === undefined ? undefined : { at: facts.at },
      );
    });
    if (facts.some((entry) => entry !== undefined)) draft.facts = facts;
    if (transcript.cost !== undefined) draft.source = { cost: transcript.cost };
    if (transcript.title !== undefined) draft.title = transcript.title;
    return [draft];
  },
};
