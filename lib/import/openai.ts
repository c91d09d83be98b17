/**
 * OpenAI chat messages → canonical messages. The canonical shape is OpenAI's,
 * so this is validation plus the few conversions real logs need: content
 * parts, legacy `function_call`, `developer`, object arguments.
 */
import * as z from "zod";
import type { Message, ToolCall } from "@/lib/context/messages";
import { readOpenAIContent } from "./content";
import { isRecord, validate, type MessageScope } from "./issues";

const roles = "system, user, assistant or tool";

function functionSchema(owner: string) {
  return z.object(
    {
      name: z.string({ error: `${owner} needs a string function name` }).min(1, { error: `${owner} has an empty function name` }),
      arguments: z.unknown().refine((value) => typeof value === "string" || isRecord(value), {
        error: `${owner} needs arguments as a JSON string`,
      }),
    },
    { error: `${owner} needs a function object {name, arguments}` },
  );
}

const toolCallSchema = z.object(
  {
    id: z.string({ error: "a tool call needs a string id" }).min(1, { error: "a tool call has an empty id" }),
    type: z.literal("function", { error: 'a tool call needs type "function"' }).optional(),
    function: functionSchema("a tool call"),
  },
  { error: "each tool call must be an object {id, type, function}" },
);

const name = z.string({ error: "name must be a string" }).optional();

const messageSchema = z.discriminatedUnion(
  "role",
  [
    z.object({ role: z.enum(["system", "developer", "user"]), content: z.unknown().optional(), name }),
    z.object({
      role: z.literal("assistant"),
      content: z.unknown().optional(),
      name,
      tool_calls: z.array(toolCallSchema, { error: "tool_calls must be an array of tool calls" }).nullable().optional(),
      function_call: functionSchema("a function_call").nullable().optional(),
    }),
    z.object({
      role: z.literal("tool"),
      content: z.unknown().optional(),
      name,
      tool_call_id: z
        .string({ error: "a tool message needs a string tool_call_id" })
        .min(1, { error: "a tool message has an empty tool_call_id" }),
    }),
    z.object({ role: z.literal("function"), content: z.unknown().optional(), name: z.string({ error: "a function message needs a string name" }) }),
  ],
  {
    error: (issue) => {
      if (!isRecord(issue.input)) return "each message must be an object with a role and content";
      const role = issue.input.role;
      if (role === undefined) return `a message needs a role (${roles})`;
      return `unknown role ${JSON.stringify(role)}: expected ${roles}`;
    },
  },
);

type RawMessage = z.infer<typeof messageSchema>;

const knownFields = new Set(["role", "content", "name", "tool_calls", "tool_call_id", "function_call"]);

/** Converts OpenAI messages, validating as it goes, appending to `messages`; problems go to `scope`. */
export function convertOpenAIMessages(raw: readonly unknown[], scope: MessageScope, messages: Message[] = []): Message[] {
  const ignored = new Map<string, number>();
  let legacyCallId: string | undefined;
  for (let index = 0; index < raw.length && !scope.issues.isFull; index += 1) {
    const value = raw[index];
    if (isRecord(value) && value.role !== "assistant" && Array.isArray(value.tool_calls) && value.tool_calls.length > 0) {
      scope.fail(index, ["tool_calls"], "only assistant messages can have tool_calls");
    }
    const parsed = validate(messageSchema, value, (path, message) => scope.fail(index, path, message));
    if (parsed === undefined || !isRecord(value)) continue;
    countIgnoredFields(value, parsed.role, ignored);
    const content = readOpenAIContent(value.content, parsed.role, scope, index, messages.length);
    if (content === undefined) continue;
    const message = toMessage(parsed, content, index, messages.length, scope, legacyCallId);
    if (parsed.role === "assistant") legacyCallId = parsed.function_call ? message.tool_calls?.[0]?.id : undefined;
    messages.push(message);
  }
  if (ignored.size > 0) {
    const list = [...ignored].map(([field, count]) => `${field} (${count} message${count === 1 ? "" : "s"})`);
    scope.warn("ignored-field", `ignored fields the canonical message does not hold: ${list.join(", ")}`);
  }
  return messages;
}

function toMessage(
  parsed: RawMessage,
  content: string | null,
  index: number,
  at: number,
  scope: MessageScope,
  legacyCallId: string | undefined,
): Message {
  switch (parsed.role) {
    case "developer":
      scope.warn("developer-role", "a developer message became a system message", { messageIndex: at, path: scope.pathOf(index, "role") });
      return withName({ role: "system", content }, parsed.name);
    case "system":
    case "user":
      return withName({ role: parsed.role, content }, parsed.name);
    case "tool":
      return withName({ role: "tool", content, tool_call_id: parsed.tool_call_id }, parsed.name);
    case "function": {
      scope.warn("legacy-function-call", "a legacy function message became a tool message", { messageIndex: at, path: scope.pathOf(index) });
      // A function result answers the latest function_call; its synthetic id pairs them.
      return { role: "tool", content, tool_call_id: legacyCallId ?? `legacy_call_${index}`, name: parsed.name };
    }
    case "assistant": {
      const calls = (parsed.tool_calls ?? []).map((call, callIndex) =>
        toToolCall(call, scope, at, scope.pathOf(index, "tool_calls", callIndex)),
      );
      if (calls.length === 0 && parsed.function_call) {
        scope.warn("legacy-function-call", "a legacy function_call became a tool call", { messageIndex: at, path: scope.pathOf(index, "function_call") });
        const legacy = { id: `legacy_call_${index}`, type: "function" as const, function: parsed.function_call };
        calls.push(toToolCall(legacy, scope, at, scope.pathOf(index, "function_call")));
      }
      const message: Message = { role: "assistant", content };
      if (calls.length > 0) message.tool_calls = calls;
      return withName(message, parsed.name);
    }
  }
}

function withName(message: Message, name: string | undefined): Message {
  if (name !== undefined) message.name = name;
  return message;
}

function toToolCall(
  call: { id: string; type?: "function"; function: { name: string; arguments: unknown } },
  scope: MessageScope,
  at: number,
  path: (string | number)[],
): ToolCall {
  let args = call.function.arguments;
  if (typeof args !== "string") {
    scope.warn("arguments-stringified", `tool call '${call.id}' had object arguments; stored them as a JSON string`, { messageIndex: at, path });
    args = JSON.stringify(args);
  }
  if (call.type === undefined) {
    scope.warn("tool-type-added", `tool call '${call.id}' had no type; set it to "function"`, { messageIndex: at, path });
  }
  return { id: call.id, type: "function", function: { name: call.function.name, arguments: args as string } };
}

function countIgnoredFields(value: Record<string, unknown>, role: string, ignored: Map<string, number>): void {
  for (const [field, fieldValue] of Object.entries(value)) {
    const known = knownFields.has(field) && !(field === "tool_call_id" && role !== "tool");
    if (known || fieldValue === null || fieldValue === "" || isEmptyContainer(fieldValue)) continue;
    ignored.set(field, (ignored.get(field) ?? 0) + 1);
  }
}

function isEmptyContainer(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}
