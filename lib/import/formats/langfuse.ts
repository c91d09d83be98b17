/**
 * Langfuse trace exports (`GET /api/public/traces/{id}`: a trace with its
 * observations, or the observations alone). Each generation's input repeats
 * the conversation so far, so the last generation's input and output are the
 * whole conversation; a warning says which generation was taken.
 */
import { isRecord, type JsonPath } from "../issues";
import { detectDialect } from "../detect";
import type { DocumentImporter } from "../registry";
import { convertMessageList, type ConversationDraft } from "../requests";
import { readChatWire } from "./chat-wire";

function isObservation(value: unknown): boolean {
  return isRecord(value) && typeof value.type === "string" && "traceId" in value;
}

export const langfuseImporter: DocumentImporter = {
  format: "langfuse",
  detect(value) {
    if (Array.isArray(value)) return value.length > 0 && value.every(isObservation);
    return isRecord(value) && Array.isArray(value.observations);
  },
  convert(value, place, context) {
    const observations = (Array.isArray(value) ? value : (value as { observations: unknown[] }).observations) as unknown[];
    const base: JsonPath = Array.isArray(value) ? place.path : [...place.path, "observations"];
    const generations = observations.flatMap((observation, index) =>
      isRecord(observation) && observation.type === "GENERATION" && observation.input != null ? [index] : [],
    );
    const last = generations.at(-1);
    const scope = context.scope(base, place.conversationIndex);
    if (last === undefined) {
      scope.failAt(base, "a Langfuse trace needs a GENERATION observation with an input: none of its observations is one");
      return [{ format: "langfuse", messages: [], warnings: scope.warnings }];
    }
    const generation = observations[last] as Record<string, unknown>;
    const inputPath: JsonPath = [...base, last, "input"];
    const input = isRecord(generation.input) && Array.isArray(generation.input.messages) ? generation.input.messages : generation.input;
    const messagesScope = context.scope(input === generation.input ? inputPath : [...inputPath, "messages"], place.conversationIndex);
    messagesScope.warnings.push(...scope.warnings);
    if (!Array.isArray(input)) {
      messagesScope.failAt(inputPath, "the generation's input must be an array of messages (or {messages})");
      return [{ format: "langfuse", messages: [], warnings: messagesScope.warnings }];
    }
    const messages = convertMessageList(input, detectDialect(input), messagesScope);
    const output = generation.output;
    const outputPath: JsonPath = [...base, last, "output"];
    if (typeof output === "string") messages.push(...readChatWire(messagesScope, [{ message: { role: "assistant", content: output }, source: outputPath }]));
    else if (isRecord(output) && "role" in output) messages.push(...readChatWire(messagesScope, [{ message: output, source: outputPath }]));
    if (generations.length > 1) {
      messagesScope.warn(
        "part-approximated",
        `the trace has ${generations.length} generations, each repeating the conversation so far: imported the last (${String(generation.id ?? last)}), which holds it all`,
        { path: [...base, last] },
      );
    }
    const draft: ConversationDraft = {
      format: "langfuse",
      messages,
      warnings: messagesScope.warnings,
      source: { model: generation.model, traceId: generation.traceId },
    };
    if (isRecord(value) && typeof value.name === "string") draft.title = value.name;
    return [draft];
  },
};
