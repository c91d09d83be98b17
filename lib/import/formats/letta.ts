/**
 * Letta agent files (`.af`, from "Export agent" in the ADE or
 * `client.agents.export_file`): v1 is one agent with top-level `messages` and
 * `in_context_message_indices`; v2 (`AgentFileSchema`) has `agents`, each with
 * its `messages` and `in_context_message_ids`, and the tools beside them. One
 * conversation per agent, read as the OpenAI chat messages Letta sends; the
 * messages outside the in-context list were evicted, which is a compaction.
 */
import type { ToolDefinition } from "@/lib/context/messages";
import type { CallFacts } from "@/lib/formats";
import { formatPath, isRecord, pathNotes, type JsonPath, type MessageScope } from "../issues";
import type { DocumentImporter, ImportContext } from "../registry";
import type { ConversationDraft } from "../requests";
import { readChatWire } from "./chat-wire";
import { evictionOf, lettaTime, orderHistory } from "./letta-history";

type Raw = Record<string, unknown>;

/** One agent of the file: its object, where it sits, its tools and which messages were in its context. */
interface AgentView {
  agent: Raw & { messages: unknown[] };
  path: JsonPath;
  /** Each tool with its path in the file. */
  tools: { tool: unknown; path: JsonPath }[];
  inContext?: Set<number>;
  version?: string;
}

function isAgentFile(value: unknown): value is Raw {
  if (!isRecord(value)) return false;
  if (Array.isArray(value.messages) && Array.isArray(value.in_context_message_indices)) return true;
  return (
    Array.isArray(value.agents) &&
    value.agents.length > 0 &&
    value.agents.every((agent) => isRecord(agent) && Array.isArray(agent.messages)) &&
    ("tools" in value || "blocks" in value)
  );
}

/** Some published `.af` files hold the agent file as one JSON string. */
function decoded(value: unknown): Raw | undefined {
  if (isAgentFile(value)) return value;
  if (typeof value !== "string" || !/^\s*\{\s*"agents"\s*:/.test(value)) return undefined;
  try {
    const inner: unknown = JSON.parse(value);
    return isAgentFile(inner) ? inner : undefined;
  } catch {
    return undefined;
  }
}

export const lettaImporter: DocumentImporter = {
  format: "letta",
  detect(value) {
    return decoded(value) !== undefined;
  },
  convert(value, place, context) {
    const file = decoded(value) as Raw;
    const views = agentsOf(file, place.path);
    const withMessages = views.filter((view) => view.agent.messages.length > 0);
    const drafts = (withMessages.length > 0 ? withMessages : views).map((view, index) =>
      convertAgent(view, context, views.length > 1 ? index : place.conversationIndex),
    );
    const first = drafts[0];
    if (typeof value === "string")
      first.warnings.unshift({ code: "shape-normalised", message: "the file holds the agent file as a JSON string: its text was read as JSON" });
    for (const view of views)
      if (view.agent.messages.length === 0 && withMessages.length > 0)
        first.warnings.push({
          code: "entry-skipped",
          message: `agent ${JSON.stringify(view.agent.name)} holds no messages: not imported`,
          path: formatPath(view.path),
        });
    return drafts;
  },
};

function agentsOf(file: Raw, path: JsonPath): AgentView[] {
  if (Array.isArray(file.messages)) {
    const indices = Array.isArray(file.in_context_message_indices) ? file.in_context_message_indices : [];
    const tools = Array.isArray(file.tools) ? file.tools.map((tool, index) => ({ tool, path: [...path, "tools", index] })) : [];
    const view: AgentView = { agent: file as AgentView["agent"], path, tools };
    view.inContext = new Set(indices.filter((index): index is number => typeof index === "number"));
    if (typeof file.version === "string") view.version = file.version;
    return [view];
  }
  const tools = Array.isArray(file.tools) ? file.tools.map((tool: unknown, index) => ({ tool, path: [...path, "tools", index] })) : [];
  return (file.agents as (Raw & { messages: unknown[] })[]).map((agent, index) => {
    const ids = new Set(Array.isArray(agent.tool_ids) ? agent.tool_ids : []);
    const own = tools.filter(({ tool }) => isRecord(tool) && ids.has(tool.id));
    const view: AgentView = { agent, path: [...path, "agents", index], tools: own };
    if (Array.isArray(agent.in_context_message_ids)) {
      const inContext = new Set(agent.in_context_message_ids);
      view.inContext = new Set(agent.messages.flatMap((message, position) => (isRecord(message) && inContext.has(message.id) ? [position] : [])));
    }
    return view;
  });
}

function convertAgent(view: AgentView, context: ImportContext, conversationIndex?: number): ConversationDraft {
  const { agent } = view;
  const scope = context.scope([...view.path, "messages"], conversationIndex);
  const notes = pathNotes(scope);
  const llm = isRecord(agent.llm_config) ? agent.llm_config : {};
  const entries = orderHistory(agent.messages, scope, notes, typeof llm.model === "string" ? llm.model : undefined);
  const messages = readChatWire(
    scope,
    entries.map((entry) => ({ message: entry.chat, source: scope.pathOf(entry.origin) })),
  );
  const facts: (CallFacts | undefined)[] = entries.map((entry) => entry.facts);
  const draft: ConversationDraft = { format: "letta", messages, warnings: scope.warnings, facts: facts.length === messages.length ? facts : undefined };
  if (typeof agent.name === "string") draft.title = agent.name;
  draft.session = { agent: "letta", ...(view.version === undefined ? {} : { agentVersion: view.version }) };
  // Exports renumber agents (`agent-0`); only a server's own id (`agent-<uuid>`) names the same agent again.
  if (typeof agent.id === "string" && /^agent-[0-9a-f]{8}-/.test(agent.id)) draft.session.sessionId = agent.id;
  draft.source = sourceOf(agent, llm);
  const tools = toolsOf(view.tools, scope);
  if (tools.length > 0) draft.tools = tools;
  const eviction = view.inContext === undefined ? undefined : evictionOf(agent.messages, view.inContext, entries);
  if (eviction?.compaction !== undefined) draft.compactions = [eviction.compaction];
  if (eviction !== undefined) {
    const listed = Array.isArray(agent.in_context_message_ids) ? "in_context_message_ids" : "in_context_message_indices";
    scope.warn("marker", eviction.warning, { messageIndex: eviction.messageIndex, path: [...view.path, listed] });
  }
  return draft;
}

function sourceOf(agent: Raw, llm: Raw): Record<string, unknown> {
  const source: Record<string, unknown> = {};
  const fields: [string, unknown][] = [
    ["agentName", agent.name],
    ["agentId", agent.id],
    ["agentType", agent.agent_type],
    ["description", agent.description],
    ["model", llm.model],
    ["modelEndpointType", llm.model_endpoint_type],
    ["contextWindow", llm.context_window],
    ["createdAt", lettaTime(agent.created_at)],
  ];
  for (const [key, value] of fields) if (value !== undefined && value !== null) source[key] = value;
  return source;
}

/** The agent's tools from their JSON schemas (Letta keeps each tool's source code beside it). */
function toolsOf(tools: AgentView["tools"], scope: MessageScope): ToolDefinition[] {
  return tools.flatMap(({ tool, path }): ToolDefinition[] => {
    const schema = isRecord(tool) && isRecord(tool.json_schema) ? tool.json_schema : undefined;
    if (schema === undefined || typeof schema.name !== "string") {
      scope.warn("part-dropped", "a tool without a json_schema {name, parameters} was left out of the tools", { path });
      return [];
    }
    const definition: ToolDefinition = { type: "function", function: { name: schema.name } };
    if (typeof schema.description === "string") definition.function.description = schema.description;
    if (isRecord(schema.parameters)) definition.function.parameters = schema.parameters;
    return [definition];
  });
}
