import "server-only";
import * as z from "zod";
import { AUTOMATION_MODES, DEFAULT_PROCESSOR_ORDER, ENCODINGS, type Message, type ToolDefinition } from "@/lib/context";
import type { MemorySettings } from "@/lib/memory";

// Shared pieces of the routes' schema.ts files: canonical messages, tool
// definitions and playground settings, checked field by field so an error
// names its path (`messages[14].tool_call_id`).

const toolCallSchema = z.strictObject({
  id: z.string().min(1, "a tool call needs a non-empty id"),
  type: z.literal("function"),
  function: z.strictObject({
    name: z.string().min(1, "a tool call needs a function name"),
    arguments: z.string({ error: "arguments must be a JSON string, as OpenAI sends them" }),
  }),
});

const name = z.string().min(1).optional();

const systemMessage = z.strictObject({ role: z.literal("system"), content: z.string(), name });
const userMessage = z.strictObject({ role: z.literal("user"), content: z.string(), name });
const assistantMessage = z
  .strictObject({
    role: z.literal("assistant"),
    content: z.string().nullable().default(null),
    tool_calls: z.array(toolCallSchema).optional(),
    name,
  })
  .refine((message) => message.content !== null || (message.tool_calls?.length ?? 0) > 0, {
    message: "an assistant message needs content or tool_calls",
    path: ["content"],
  });
const toolMessage = z.strictObject({
  role: z.literal("tool"),
  content: z.string({ error: "a tool result needs string content (use \"\" for an empty result)" }),
  tool_call_id: z.string({ error: "a tool message needs the tool_call_id of the call it answers" }).min(1),
  name,
});

/** One canonical message (OpenAI chat shape, lib/context's `Message`); unknown fields are refused. */
export const messageSchema: z.ZodType<Message> = z.discriminatedUnion(
  "role",
  [systemMessage, userMessage, assistantMessage, toolMessage],
  { error: "role must be system, user, assistant or tool" },
) as unknown as z.ZodType<Message>;

export const messagesSchema = z.array(messageSchema);

/** An OpenAI tool definition; `parameters` is any JSON Schema object. */
export const toolDefinitionSchema: z.ZodType<ToolDefinition> = z.strictObject({
  type: z.literal("function"),
  function: z.strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().optional(),
  }),
}) as unknown as z.ZodType<ToolDefinition>;

export const toolsSchema = z.array(toolDefinitionSchema);

const positiveInteger = z.number().int().positive();
// 0 is meaningful for counts the engine reads: 0 history rounds keeps only the incomplete round, a 0 threshold always fires.
const count = z.number().int().nonnegative();
const threshold = count.nullable();

/** Settings a conversation stores: lib/memory's (`PlaygroundSettings` plus `artifactThreshold`) and the proxy's `applyPipeline`. */
export type ConversationSettings = MemorySettings & { applyPipeline?: boolean };

/** A change to stored settings: `encoding: null` goes back to the model's encoding. */
export type ConversationSettingsChanges = Partial<Omit<ConversationSettings, "encoding">> & { encoding?: MemorySettings["encoding"] | null };

const settingsFields = {
  mode: z.enum(AUTOMATION_MODES as [string, ...string[]]),
  historyRounds: count,
  summaryThreshold: threshold,
  offloadThreshold: threshold,
  maxMessageSize: positiveInteger,
  maxToolResultSize: positiveInteger,
  tokenBudget: positiveInteger,
  contextWindow: positiveInteger,
  maxOutputTokens: z.number().int().nonnegative(),
  model: z.string().min(1),
  encoding: z.enum(ENCODINGS as [string, ...string[]]),
  processors: z.array(z.strictObject({ kind: z.enum(DEFAULT_PROCESSOR_ORDER as [string, ...string[]]), enabled: z.boolean() })),
  /** Characters a tool result may hold before lib/memory stores it as an artifact. */
  artifactThreshold: positiveInteger,
};

/** Per-call overrides of the stored settings (prompt, compact): any settings field, each optional. */
export const settingsOverridesSchema = z.strictObject(settingsFields).partial() as unknown as z.ZodType<Partial<MemorySettings>>;

/** What POST merges over the defaults and PATCH over the stored settings; also the proxy's `applyPipeline`. */
export const settingsChangesSchema = z
  .strictObject({ ...settingsFields, encoding: settingsFields.encoding.nullable(), applyPipeline: z.boolean() })
  .partial() as unknown as z.ZodType<ConversationSettingsChanges>;

/** A non-negative integer in a query string (`?offset=20`). */
export const queryInteger = z.coerce.number({ error: "expected a whole number" }).int("expected a whole number").nonnegative("must not be negative");
