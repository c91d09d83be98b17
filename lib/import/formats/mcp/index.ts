/**
 * MCP JSON-RPC logs (a client's, the MCP Inspector's, a proxy's): the
 * session's `tools/call` requests are the assistant's tool calls and their
 * responses the results, paired by JSON-RPC id; `tools/list` gives the tools,
 * `initialize` the client (the agent), the server and the protocol. One
 * message a line, or an array of them; messages bare or wrapped with their
 * time and direction.
 */
import type { CallFacts, SessionFacts } from "@/lib/formats";
import { readChatTools } from "@/lib/formats";
import type { ImportContext, ImportPlace, DocumentImporter, LinesImporter } from "../../registry";
import { isRecord } from "../../issues";
import { readWithScope, type ConversationDraft } from "../../requests";
import { readAnthropicWire } from "../anthropic-wire";
import { entriesOf, isMcpLog, type Entry } from "./entries";
import { McpSession } from "./session";

export const mcpImporter: DocumentImporter = {
  format: "mcp",
  detect(value) {
    return isMcpLog(entriesOf(value, []));
  },
  convert(value, place, context) {
    return convertEntries(entriesOf(value, place.path) ?? [], place, context);
  },
};

export const mcpLinesImporter: LinesImporter = {
  format: "mcp",
  detectLines(values) {
    return isMcpLog(entriesOf(values, []));
  },
  convertLines(records, context) {
    const entries = records.flatMap((record, index) => entriesOf(record.value, [index]) ?? []);
    return convertEntries(entries, { path: [] }, context);
  },
};

function convertEntries(entries: readonly Entry[], place: ImportPlace, context: ImportContext): ConversationDraft[] {
  const scope = context.scope(place.path, place.conversationIndex);
  const session = new McpSession(scope);
  for (const entry of entries) session.add(entry);
  const wire = session.wire();
  if (wire.messages.length === 0) {
    scope.failAt(place.path, "the log holds no tools/call request: there is no conversation in it");
    return [{ format: "mcp", messages: [], warnings: scope.warnings }];
  }
  const { messages, starts } = readAnthropicWire(scope, wire.messages);
  // A tool result wire message may become several canonical messages (never fewer than one): each gets its facts.
  const facts: (CallFacts | undefined)[] = messages.map((_, index) => wire.facts[starts.findLastIndex((start) => start <= index)]);
  if (session.skipped.size > 0) {
    const kinds = [...session.skipped].map(([kind, times]) => `${kind} ×${times}`).join(", ");
    const total = [...session.skipped.values()].reduce((sum, times) => sum + times, 0);
    scope.warn("entry-skipped", `skipped ${total} message${total === 1 ? " that holds" : "s that hold"} no tool call or result (${kinds})`);
  }
  const draft: ConversationDraft = { format: "mcp", messages, warnings: scope.warnings, facts, source: session.source };
  const server = session.source.server;
  if (isRecord(server) && (typeof server.title === "string" || typeof server.name === "string"))
    draft.title = `MCP session with ${String(server.title ?? server.name)}`;
  if (session.tools.size > 0) {
    const tools = [...session.tools.values()];
    const raw = tools.map(({ tool }) => {
      const definition: Record<string, unknown> = { name: tool.name, parameters: tool.inputSchema ?? { type: "object" } };
      if (typeof tool.description === "string") definition.description = tool.description;
      return { type: "function", function: definition };
    });
    draft.tools = readWithScope(scope, "openai-chat", tools[0].path, (conversion) => readChatTools(raw, conversion, []));
  }
  const sessionFacts: SessionFacts = {};
  if (typeof session.client?.name === "string") sessionFacts.agent = session.client.name;
  if (typeof session.client?.version === "string") sessionFacts.agentVersion = session.client.version;
  if (session.sessionId !== undefined) sessionFacts.sessionId = session.sessionId;
  if (Object.keys(sessionFacts).length > 0) draft.session = sessionFacts;
  return [draft];
}
