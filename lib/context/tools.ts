import type { Context } from "./context";
import { ContextError } from "./errors";
import type { ToolDefinition } from "./messages";
import { Bm25Index } from "./retrieval";
import { STATE_KEYS } from "./state";

/**
 * The exact original content behind an offload handle, from offloaded messages
 * or offloaded tool results (E-O2). An unknown handle throws `ContextError`.
 * @example await reloadOffloaded(ctx, "off_3fa2b01c9d4e")
 */
export async function reloadOffloaded(ctx: Context, handle: string): Promise<string> {
  const fromMessages = ctx.state.get(STATE_KEYS.offloadedMessages)?.[handle];
  if (fromMessages !== undefined) return fromMessages;
  const fromResults = ctx.state.get(STATE_KEYS.offloadedResults)?.[handle];
  if (fromResults !== undefined) return fromResults;
  throw new ContextError(`unknown offload handle '${handle}': no offloaded message or tool result has it in task '${ctx.taskId}'`, { where: handle });
}

/** A tool the agent can call to manage its own context. */
export interface ContextTool {
  definition: ToolDefinition;
  /** Runs the tool; `args` is the parsed JSON arguments object. Returns the tool message content. */
  handler(ctx: Context, args: Record<string, unknown>): Promise<string>;
}

/** A planning checklist item, kept in state under `todos`. */
export interface TodoItem {
  id: string;
  text: string;
  status: "pending" | "in_progress" | "done";
}

/** A piece of workspace knowledge, kept in state under `knowledge`. */
export interface KnowledgeItem {
  id: string;
  title?: string;
  text: string;
}

function stringArgument(args: Record<string, unknown>, name: string, tool: string): string {
  const value = args[name];
  if (typeof value !== "string" || value.length === 0) throw new ContextError(`${tool}: argument '${name}' must be a non-empty string`, { where: name });
  return value;
}

const TODO_STATUSES = new Set<TodoItem["status"]>(["pending", "in_progress", "done"]);

function parseTodos(value: unknown): TodoItem[] {
  if (!Array.isArray(value)) throw new ContextError("todo_write: argument 'items' must be an array", { where: "items" });
  return value.map((item, index) => {
    const record = (item ?? {}) as Record<string, unknown>;
    if (typeof record.text !== "string" || record.text.length === 0)
      throw new ContextError(`todo_write: items[${index}].text must be a non-empty string`, { where: `items[${index}].text` });
    const status = (record.status ?? "pending") as TodoItem["status"];
    if (!TODO_STATUSES.has(status))
      throw new ContextError(`todo_write: items[${index}].status must be pending, in_progress or done`, { where: `items[${index}].status` });
    return { id: typeof record.id === "string" ? record.id : String(index + 1), text: record.text, status };
  });
}

const reloadTool: ContextTool = {
  definition: {
    type: "function",
    function: {
      name: "reload_offloaded",
      description:
        "Read the full original content of a message or tool result that was offloaded from the context and replaced by an [[OFFLOADED: handle=...]] marker.",
      parameters: {
        type: "object",
        properties: { handle: { type: "string", description: "The handle from the marker, like off_3fa2b01c9d4e." } },
        required: ["handle"],
        additionalProperties: false,
      },
    },
  },
  handler: (ctx, args) => reloadOffloaded(ctx, stringArgument(args, "handle", "reload_offloaded")),
};

const todoWriteTool: ContextTool = {
  definition: {
    type: "function",
    function: {
      name: "todo_write",
      description: "Replace the task checklist with the given items, to plan multi-step work and track progress.",
      parameters: {
        type: "object",
        properties: {
          items: {
            type: "array",
            description: "The whole checklist, in order.",
            items: {
              type: "object",
              properties: { id: { type: "string" }, text: { type: "string" }, status: { type: "string", enum: ["pending", "in_progress", "done"] } },
              required: ["text"],
            },
          },
        },
        required: ["items"],
      },
    },
  },
  handler: async (ctx, args) => {
    const todos = parseTodos(args.items);
    ctx.state.set("todos", todos);
    return renderTodos(todos);
  },
};

const todoReadTool: ContextTool = {
  definition: {
    type: "function",
    function: { name: "todo_read", description: "Read the current task checklist.", parameters: { type: "object", properties: {} } },
  },
  handler: async (ctx) => renderTodos((ctx.state.get("todos") as TodoItem[] | undefined) ?? []),
};

const searchKnowledgeTool: ContextTool = {
  definition: {
    type: "function",
    function: {
      name: "search_knowledge",
      description: "Search the workspace knowledge (notes, artifact summaries) by keywords; returns the best matches.",
      parameters: {
        type: "object",
        properties: {
          query: { type: "string", description: "Keywords to look for." },
          limit: { type: "integer", description: "How many matches to return (default 3)." },
        },
        required: ["query"],
      },
    },
  },
  handler: async (ctx, args) => {
    const query = stringArgument(args, "query", "search_knowledge");
    const limit = typeof args.limit === "number" && args.limit > 0 ? Math.floor(args.limit) : 3;
    const items = (ctx.state.get("knowledge") as KnowledgeItem[] | undefined) ?? [];
    // Titles are searched with the text but shown once, from the item itself.
    const hits = new Bm25Index(items.map((item) => ({ id: item.id, text: `${item.title ?? ""} ${item.text}`, item }))).search(query, limit);
    if (hits.length === 0) return `No knowledge matches '${query}'.`;
    return hits.map(({ document: { item } }, rank) => `${rank + 1}. [${item.id}]${item.title ? ` ${item.title}` : ""}\n${item.text}`).join("\n\n");
  },
};

function renderTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return "The checklist is empty.";
  const marks = { pending: "[ ]", in_progress: "[~]", done: "[x]" } as const;
  return todos.map((todo) => `${marks[todo.status]} ${todo.id}. ${todo.text}`).join("\n");
}

/**
 * The agent-callable context tools: `reload_offloaded`, planning (`todo_write`,
 * `todo_read`) and knowledge search (`search_knowledge`).
 * @example const tools = getContextTools(); request.tools = tools.map((tool) => tool.definition)
 */
export function getContextTools(): ContextTool[] {
  return [reloadTool, todoWriteTool, todoReadTool, searchKnowledgeTool];
}

/** Runs a context tool call by name with its JSON argument string. */
export async function runContextTool(ctx: Context, name: string, argumentsJson: string): Promise<string> {
  const tool = getContextTools().find((candidate) => candidate.definition.function.name === name);
  if (!tool) throw new ContextError(`unknown context tool '${name}'`, { where: name });
  let args: unknown;
  try {
    args = argumentsJson.trim() === "" ? {} : JSON.parse(argumentsJson);
  } catch (error) {
    throw new ContextError(`${name}: arguments are not valid JSON (${(error as Error).message})`, { where: "arguments", cause: error });
  }
  if (typeof args !== "object" || args === null || Array.isArray(args))
    throw new ContextError(`${name}: arguments must be a JSON object`, { where: "arguments" });
  return tool.handler(ctx, args as Record<string, unknown>);
}
