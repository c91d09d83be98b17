import * as z from "zod";
import { AUTOMATION_MODES, ENCODINGS, MEDIA_RULES, PROCESSOR_KINDS } from "@/lib/context/light";

// The one schema of a conversation's stored settings: what the playground
// tunes, the recorder and the proxy send with, and `npm run inspect` reads.
// Every reader goes through `normalizeSettings` (stored rows, lenient) or
// these schemas (requests, strict): nothing reads settings JSON by hand.

/** A list the engine exports, as the non-empty tuple `z.enum` infers literal types from. */
function choices<T extends string>(values: readonly T[]): readonly [T, ...T[]] {
  if (values.length === 0) throw new TypeError("a choice needs at least one value");
  return values as readonly [T, ...T[]];
}

const count = (minimum: number) => z.number({ error: "expected a whole number" }).int("expected a whole number").min(minimum, `must be at least ${minimum}`);

/** One processor of the pipeline, in its place in the order. */
export const processorEntrySchema = z.strictObject({
  kind: z.enum(choices(PROCESSOR_KINDS), { error: `unknown processor: use one of ${PROCESSOR_KINDS.join(", ")}` }),
  enabled: z.boolean(),
});

const processorsSchema = z.array(processorEntrySchema).superRefine((entries, context) => {
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    if (seen.has(entry.kind))
      context.addIssue({ code: "custom", message: `'${entry.kind}' is listed twice: each processor appears once`, path: [index, "kind"] });
    seen.add(entry.kind);
  });
});

/**
 * The strategy processors' settings (ST-5), each field optional: what is left
 * out takes the engine's default, so a stored tuning holds only what was changed.
 */
export const processorTuningSchema = z.strictObject({
  clear_tool_uses: z
    .strictObject({
      triggerTokens: count(0).optional(),
      keepToolUses: count(0).optional(),
      clearAtLeastTokens: count(0).optional(),
      excludeTools: z.array(z.string().trim().min(1, "a tool name is needed")).optional(),
      clearToolInputs: z.boolean().optional(),
      placeholder: z.string().min(1, "a placeholder is needed").optional(),
    })
    .optional(),
  observation_masking: z
    .strictObject({ keepObservations: count(0).optional(), placeholder: z.string().min(1, "a placeholder is needed").optional() })
    .optional(),
  auto_compact: z
    .strictObject({
      fraction: z.number({ error: "expected a number" }).gt(0, "must be above 0").max(1, "must be at most 1").optional(),
      keepRounds: count(1).optional(),
    })
    .optional(),
  token_window: z.strictObject({ maxTokens: count(1).optional() }).optional(),
});

const settingsFields = {
  /** The automation mode whose preset gave the rounds and thresholds. */
  mode: z.enum(choices(AUTOMATION_MODES), { error: `use one of ${AUTOMATION_MODES.join(", ")}` }),
  /** Rounds the round window keeps. */
  historyRounds: count(1),
  /** Non-system messages past which older rounds are summarised; null: never. */
  summaryThreshold: count(1).nullable(),
  /** Non-system messages past which long messages are offloaded; null: never. */
  offloadThreshold: count(0).nullable(),
  /** Characters a message may hold before it is offloaded. */
  maxMessageSize: count(1),
  /** Characters a tool result may hold before it is truncated as it arrives. */
  maxToolResultSize: count(1),
  /** Characters a recorded tool result may hold before it is stored as an artifact; null: `maxToolResultSize`. */
  artifactThreshold: count(1).nullable(),
  /** Hard limit on the tokens of everything sent (messages and tools); null: only the context window limits. */
  tokenBudget: count(1).nullable(),
  /** The model requests are sent to; its catalogue entry gives the defaults below. */
  model: z.string({ error: "expected a model name" }).trim().min(1, "a model name is needed"),
  /** The model's input capacity; null: the catalogue's. */
  contextWindow: count(1).nullable(),
  /** Tokens reserved for the reply, sent as `max_tokens`; null: the model's default reserve. */
  maxOutputTokens: count(1).nullable(),
  /** The tiktoken encoding counts use; null: the model's. */
  encoding: z.enum(choices(ENCODINGS), { error: `use one of ${ENCODINGS.join(", ")}` }).nullable(),
  /** The processors in the order they run, each on or off. */
  processors: processorsSchema,
  /** The strategy processors' settings; a missing one takes the engine's default. */
  tuning: processorTuningSchema,
  /** The recording proxy sends agents' requests through this pipeline (otherwise it passes them through). */
  applyPipeline: z.boolean(),
  /** When offloaded content is sent, offer the model `reload_offloaded` (off: nothing is offloaded, no marker is sent). */
  reloadTool: z.boolean(),
  /** Memories (older summaries, stored tool results) retrieved into a request; 0: none. */
  retrievedMemories: count(0).max(10, "at most 10"),
};

/** A conversation's whole settings, as stored after normalisation. */
export const settingsSchema = z.strictObject(settingsFields);

/**
 * A change to stored settings (`PATCH`, a new conversation's settings, per-call
 * overrides): any field, each optional; `null` clears a field that may be
 * cleared (back to the model's value, or off).
 */
export const settingsChangesSchema = z.strictObject(settingsFields).partial();

/**
 * ST-7: the engine's `RequestPolicy` as JSON (a replayed or compared policy):
 * the settings' fields, with what `resolveSettings` fills in from the model
 * made concrete. Derived from the settings, so a policy the settings resolve
 * to always parses.
 */
export const requestPolicySchema = settingsSchema
  .pick({
    mode: true,
    historyRounds: true,
    summaryThreshold: true,
    offloadThreshold: true,
    maxMessageSize: true,
    maxToolResultSize: true,
    processors: true,
    model: true,
    tokenBudget: true,
    reloadTool: true,
    retrievedMemories: true,
  })
  .extend({
    encoding: settingsFields.encoding.unwrap(),
    mediaRule: z.enum(MEDIA_RULES, { error: `use one of ${MEDIA_RULES.join(", ")}` }).optional(),
    contextWindow: settingsFields.contextWindow.unwrap(),
    maxOutputTokens: settingsFields.maxOutputTokens.unwrap(),
    tuning: processorTuningSchema.optional(),
  });

export type Settings = z.infer<typeof settingsSchema>;
export type SettingsChanges = z.infer<typeof settingsChangesSchema>;
export type ProcessorEntry = z.infer<typeof processorEntrySchema>;
export type SettingsTuning = z.infer<typeof processorTuningSchema>;
