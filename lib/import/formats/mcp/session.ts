/**
 * Walks an MCP log in order. Each `tools/call` request is an assistant tool
 * call (calls sent before any answer are one turn, as parallel calls) and its
 * response, found by JSON-RPC id, the tool result, read as Anthropic
 * `tool_use` / `tool_result` blocks so images and embedded resources stay
 * media parts. `tools/list` results are the tools, `initialize` the client,
 * the server and the protocol; everything else is counted and skipped.
 */
import type { CallFacts } from "@/lib/formats";
import { isRecord, type JsonPath, type MessageScope } from "../../issues";
import type { WireMessage } from "../anthropic-wire";
import { toolResultBlock } from "./content";
import type { Entry } from "./entries";

interface Pending {
  method: string;
  callId?: string;
  turn?: Turn;
  at?: string;
}

/** An assistant message of calls and the results that answer them, with the facts of each. */
interface Turn {
  calls: WireMessage;
  callFacts?: CallFacts;
  results: { message: WireMessage; facts?: CallFacts }[];
}

export class McpSession {
  readonly tools = new Map<string, { tool: Record<string, unknown>; path: JsonPath }>();
  readonly source: Record<string, unknown> = {};
  client?: { name?: unknown; version?: unknown };
  sessionId?: string;
  readonly skipped = new Map<string, number>();
  private readonly pending = new Map<string, Pending>();
  private readonly unnumbered: Pending[] = [];
  private readonly turns: Turn[] = [];
  private openTurn?: Turn;
  private readonly usedIds = new Set<string>();

  constructor(private readonly scope: MessageScope) {}

  add(entry: Entry): void {
    this.sessionId ??= entry.sessionId;
    const message = entry.message;
    if (typeof message.method === "string") {
      this.request(message.method, entry);
      return;
    }
    this.openTurn = undefined;
    const pending = message.id === undefined || message.id === null ? this.unnumberedResult(entry) : this.pending.get(JSON.stringify(message.id));
    if (pending === undefined) {
      this.skip("responses to requests the log does not hold");
      return;
    }
    this.pending.delete(JSON.stringify(message.id));
    const result = isRecord(message.result) ? message.result : {};
    if (pending.method === "tools/call" && pending.callId !== undefined && pending.turn !== undefined)
      this.result({ ...pending, callId: pending.callId, turn: pending.turn }, entry);
    else if (pending.method === "tools/list" && Array.isArray(result.tools)) this.listTools(result.tools, [...entry.path, "result", "tools"]);
    else if (pending.method === "initialize") this.initialized(result);
    else if (pending.method === "tools/list" || pending.method === "tools/call") this.skip(`${pending.method} responses without a result`);
  }

  private request(method: string, entry: Entry): void {
    const { message } = entry;
    const params = isRecord(message.params) ? message.params : {};
    const numbered = message.id !== undefined && message.id !== null;
    if (method !== "tools/call") {
      this.openTurn = undefined;
      if (method === "initialize" && isRecord(params.clientInfo)) this.client = params.clientInfo;
      // A request the import has no use for is counted once, with its response.
      if (method !== "initialize" && method !== "tools/list") this.skip(method);
      if (numbered) this.pending.set(JSON.stringify(message.id), { method });
      return;
    }
    const callId = this.callIdOf(message.id, entry.path);
    if (params.arguments !== undefined && !isRecord(params.arguments))
      this.scope.warn("part-approximated", `call '${callId}' had arguments that are not an object: called with none`, {
        path: [...entry.path, "params", "arguments"],
      });
    const block = { type: "tool_use", id: callId, name: params.name, input: isRecord(params.arguments) ? params.arguments : {} };
    let turn = this.openTurn;
    if (turn === undefined) {
      turn = { calls: { role: "assistant", content: [block], source: entry.path }, results: [] };
      if (entry.at !== undefined) turn.callFacts = { at: entry.at };
      this.turns.push(turn);
      this.openTurn = turn;
    } else (turn.calls.content as unknown[]).push(block);
    const pending: Pending = { method, callId, turn, ...(entry.at === undefined ? {} : { at: entry.at }) };
    if (numbered) this.pending.set(JSON.stringify(message.id), pending);
    else this.unnumbered.push(pending);
  }

  /** JSON-RPC ids are numbers or strings and restart with each connection: the first use keeps the id, a reuse gets a suffix. */
  private callIdOf(id: unknown, path: JsonPath): string {
    if (id === undefined || id === null) {
      this.scope.warn("call-id-generated", "a tools/call request has no JSON-RPC id: gave it one by its place in the log", { path });
      return this.unique(`mcp-call-${this.usedIds.size + 1}`);
    }
    return this.unique(String(id));
  }

  private unique(id: string): string {
    let candidate = id;
    for (let count = 2; this.usedIds.has(candidate); count += 1) candidate = `${id}~${count}`;
    this.usedIds.add(candidate);
    return candidate;
  }

  private unnumberedResult(entry: Entry): Pending | undefined {
    const pending = this.unnumbered.shift();
    if (pending !== undefined)
      this.scope.warn("call-id-generated", "a tool result has no JSON-RPC id: paired with the oldest unanswered call, by position", { path: entry.path });
    return pending;
  }

  private result(pending: Pending & { callId: string; turn: Turn }, entry: Entry): void {
    if (pending.turn !== this.turns.at(-1))
      this.scope.warn("part-approximated", `the result of call '${pending.callId}' came after a later call was sent: placed with its own call`, {
        path: entry.path,
      });
    const block = toolResultBlock(pending.callId, entry.message, entry.path, this.scope);
    const facts: CallFacts = {};
    if (entry.at !== undefined) facts.at = entry.at;
    if (entry.at !== undefined && pending.at !== undefined) facts.latencyMs = Date.parse(entry.at) - Date.parse(pending.at);
    pending.turn.results.push({ message: { role: "user", content: [block], source: entry.path }, ...(Object.keys(facts).length === 0 ? {} : { facts }) });
  }

  /** The turns as Anthropic wire messages, each turn's results right after its calls, and the facts of each wire message. */
  wire(): { messages: WireMessage[]; facts: (CallFacts | undefined)[] } {
    const messages: WireMessage[] = [];
    const facts: (CallFacts | undefined)[] = [];
    for (const turn of this.turns) {
      messages.push(turn.calls, ...turn.results.map((result) => result.message));
      facts.push(turn.callFacts, ...turn.results.map((result) => result.facts));
    }
    return { messages, facts };
  }

  private listTools(tools: readonly unknown[], path: JsonPath): void {
    tools.forEach((tool, index) => {
      if (isRecord(tool) && typeof tool.name === "string") this.tools.set(tool.name, { tool, path: [...path, index] });
    });
  }

  private initialized(result: Record<string, unknown>): void {
    if (isRecord(result.serverInfo)) this.source.server = result.serverInfo;
    for (const key of ["protocolVersion", "instructions", "capabilities"]) if (result[key] !== undefined) this.source[key] = result[key];
  }

  private skip(kind: string): void {
    this.skipped.set(kind, (this.skipped.get(kind) ?? 0) + 1);
  }
}
