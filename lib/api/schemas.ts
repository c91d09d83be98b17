import "server-only";
import * as z from "zod";
import type { Message, ToolDefinition } from "@/lib/context";
import { findExcessiveNesting, MAX_JSON_DEPTH, MAX_STORED_INTEGER } from "./json-input";

// Shared pieces of the routes' schema.ts files: canonical messages and tool
// definitions, checked field by field so an error names its path
// (`messages[14].tool_call_id`). Settings have their own schema (lib/settings).

const toolCallSchema = z.strictObject({
  id: z.string().min(1, "a tool call needs a non-empty id"),
  type: z.literal("function"),
  function: z.strictObject({
    name: z.string().min(1, "a tool call needs a function name"),
    // BD-3: the JSON inside the string nests no deeper than any other JSON input; exports and the proxy parse it.
    arguments: z
      .string({ error: "arguments must be a JSON string, as OpenAI sends them" })
      .refine((text) => findExcessiveNesting(text) === null, `arguments nest deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`),
  }),
});

const name = z.string().min(1).optional();

const cacheControlSchema = z.strictObject({ type: z.literal("ephemeral"), ttl: z.enum(["5m", "1h"]).optional() });
/** Provider fields by provider: `{ anthropic: { ... } }`. */
const extrasSchema = z.record(z.string(), z.record(z.string(), z.unknown()));
const mediaSourceSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("url"), url: z.string(), mediaType: z.string().optional() }),
  z.strictObject({ type: z.literal("base64"), mediaType: z.string(), data: z.string() }),
  z.strictObject({ type: z.literal("file"), fileId: z.string(), mediaType: z.string().optional() }),
  z.strictObject({ type: z.literal("text"), text: z.string(), mediaType: z.string().optional() }),
]);
const partFields = { extras: extrasSchema.optional() };
const dimension = z.number().int().positive().optional();

/** One typed part of a message (lib/context/parts.ts). */
const partSchema = z.discriminatedUnion(
  "type",
  [
    z.strictObject({ type: z.literal("text"), text: z.string(), cacheControl: cacheControlSchema.optional(), ...partFields }),
    z.strictObject({
      type: z.literal("image"),
      source: mediaSourceSchema,
      detail: z.enum(["auto", "low", "high"]).optional(),
      width: dimension,
      height: dimension,
      cacheControl: cacheControlSchema.optional(),
      ...partFields,
    }),
    z.strictObject({
      type: z.literal("audio"),
      source: mediaSourceSchema,
      format: z.string().optional(),
      seconds: z.number().nonnegative().optional(),
      transcript: z.string().optional(),
      cacheControl: cacheControlSchema.optional(),
      ...partFields,
    }),
    z.strictObject({
      type: z.literal("document"),
      source: mediaSourceSchema,
      title: z.string().optional(),
      pages: dimension,
      cacheControl: cacheControlSchema.optional(),
      ...partFields,
    }),
    z.strictObject({
      type: z.literal("reasoning"),
      text: z.string(),
      summary: z.array(z.string()).optional(),
      signature: z.string().optional(),
      redacted: z.string().optional(),
      encrypted: z.string().optional(),
      id: z.string().optional(),
      ...partFields,
    }),
    z.strictObject({ type: z.literal("refusal"), text: z.string(), ...partFields }),
    z.strictObject({
      type: z.literal("provider"),
      provider: z.enum(["openai", "anthropic", "gemini"]),
      data: z.record(z.string(), z.unknown()),
      ...partFields,
    }),
  ],
  { error: "a part's type must be text, image, audio, document, reasoning, refusal or provider" },
);

/** What every role may carry besides its chat fields (the engine mark is the engine's alone, never accepted here). */
const richFields = {
  parts: z.array(partSchema).optional(),
  cache_control: cacheControlSchema.optional(),
  extras: extrasSchema.optional(),
};

const systemMessage = z.strictObject({ role: z.literal("system"), content: z.string(), name, ...richFields });
const userMessage = z.strictObject({ role: z.literal("user"), content: z.string(), name, ...richFields });
const assistantMessage = z
  .strictObject({
    role: z.literal("assistant"),
    content: z.string().nullable().default(null),
    tool_calls: z.array(toolCallSchema).optional(),
    name,
    ...richFields,
  })
  .refine((message) => message.content !== null || (message.tool_calls?.length ?? 0) > 0 || (message.parts?.length ?? 0) > 0, {
    message: "an assistant message needs content, tool_calls or parts",
    path: ["content"],
  });
const toolMessage = z.strictObject({
  role: z.literal("tool"),
  content: z.string({ error: 'a tool result needs string content (use "" for an empty result)' }),
  tool_call_id: z.string({ error: "a tool message needs the tool_call_id of the call it answers" }).min(1),
  name,
  ...richFields,
});

/** One canonical message (OpenAI chat shape, lib/context's `Message`); unknown fields are refused. */
export const messageSchema: z.ZodType<Message> = z.discriminatedUnion("role", [systemMessage, userMessage, assistantMessage, toolMessage], {
  error: "role must be system, user, assistant or tool",
});

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
  cache_control: cacheControlSchema.optional(),
  extras: extrasSchema.optional(),
});

export const toolsSchema = z.array(toolDefinitionSchema);

/** BD4: a count or position the databases store in an `Int` column, or compare with one: 0 to 2^31 - 1. */
export const storedCount = z
  .number({ error: "expected a whole number" })
  .int("expected a whole number")
  .nonnegative("must not be negative")
  .max(MAX_STORED_INTEGER, `must be at most ${MAX_STORED_INTEGER}`);

/** A non-negative integer in a query string (`?offset=20`), within what an `Int` column holds (BD-4). */
export const queryInteger = z.coerce
  .number({ error: "expected a whole number" })
  .int("expected a whole number")
  .nonnegative("must not be negative")
  .max(MAX_STORED_INTEGER, `must be at most ${MAX_STORED_INTEGER}`);
