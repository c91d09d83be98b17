/** Cline's panel entries gathered into Anthropic turns, with each API request's facts (see ui-messages.ts). */
import { type CallFacts, isoTime, readReportedUsage, type SessionFacts } from "@/lib/formats";
import { isRecord, type JsonPath } from "../../issues";
import { mediaBlock, type WireMessage } from "../anthropic-wire";
import { outcomesInRequest } from "./results";
import { panelTool, parseJson } from "./ui-tools";
import { addCost, clineSession, taskTitle, workspaceOf } from "./task";

interface UiCall {
  id: string;
  name: string;
  output: unknown[];
  awaitsAnswer: boolean;
}

interface Turn {
  blocks: unknown[];
  calls: UiCall[];
  facts: CallFacts;
  source: JsonPath;
}

interface Counter {
  count: number;
  /** The wire message of the first one. */
  first?: number;
}

export class UiTranscript {
  readonly wire: WireMessage[] = [];
  readonly wireFacts: (CallFacts | undefined)[] = [];
  readonly skipped = new Map<string, number>();
  readonly generated: Counter = { count: 0 };
  readonly empty: Counter = { count: 0 };
  readonly paired: Counter = { count: 0 };
  cost: number | undefined;
  title: string | undefined;
  private cwd: string | undefined;
  private turn: Turn | undefined;
  private results: Record<string, unknown>[] = [];
  private user: { blocks: unknown[]; at?: string; source?: JsonPath } = { blocks: [] };
  private requested = false;

  constructor(private readonly prefix: JsonPath) {}

  add(entry: Record<string, unknown>, index: number): void {
    const kind = String(entry.type === "say" ? entry.say : entry.ask);
    const text = typeof entry.text === "string" ? entry.text : "";
    if (!this.route(kind, entry, text, [...this.prefix, index])) this.skipped.set(kind, (this.skipped.get(kind) ?? 0) + 1);
  }

  /** Takes one entry into the transcript; false for the kinds that hold no message. */
  private route(kind: string, entry: Record<string, unknown>, text: string, source: JsonPath): boolean {
    if (kind === "task" || (kind === "text" && !this.requested && this.turn === undefined)) this.addUser(entry, text, source);
    else if (kind === "user_feedback") this.answer(entry, text, source);
    else if (kind === "api_req_started") this.startTurn(entry, text, source);
    else if (kind === "reasoning") this.addBlock(entry, source, { type: "thinking", thinking: text });
    else if (kind === "text" || (kind === "completion_result" && entry.type === "say")) this.addBlock(entry, source, { type: "text", text });
    else if (kind === "plan_mode_respond" || kind === "act_mode_respond")
      this.addBlock(entry, source, { type: "text", text: String(parseJson(text)?.response ?? text) });
    else if (kind === "tool") this.addTool(entry, text, source);
    else if (kind === "command") this.addCall(entry, source, "execute_command", { command: text });
    else if (kind === "use_mcp_server") {
      const { type, ...input } = parseJson(text) ?? { text };
      this.addCall(entry, source, typeof type === "string" ? type : "use_mcp_tool", input);
    } else if (kind === "followup") this.addCall(entry, source, "ask_followup_question", parseJson(text) ?? { question: text }, true);
    else return this.addOutput(kind, text);
    return true;
  }

  /** A command's output or an MCP server's response, for the last call of that kind. */
  private addOutput(kind: string, text: string): boolean {
    const mcp = kind === "mcp_server_response";
    if (kind !== "command_output" && !mcp) return false;
    const call = this.turn?.calls.findLast((found) => (mcp ? found.name.includes("mcp") : found.name === "execute_command"));
    call?.output.push({ type: "text", text });
    return call !== undefined;
  }

  /** Writes what is still open. */
  end(): void {
    this.closeTurn();
    this.flushUser();
  }

  session(): SessionFacts {
    return clineSession(this.cwd);
  }

  private addUser(entry: Record<string, unknown>, text: string, source: JsonPath): void {
    this.closeTurn();
    this.title ??= taskTitle(text);
    this.user.at ??= isoTime(entry.ts);
    this.user.source ??= source;
    if (text !== "") this.user.blocks.push({ type: "text", text });
    if (Array.isArray(entry.images)) for (const image of entry.images) if (typeof image === "string") this.user.blocks.push(mediaBlock(image, undefined));
  }

  /** The user's reply answers a pending question, else it is a user turn of its own. */
  private answer(entry: Record<string, unknown>, text: string, source: JsonPath): void {
    const question = this.turn?.calls.at(-1);
    if (question === undefined || !question.awaitsAnswer || question.output.length > 0) this.addUser(entry, text, source);
    else question.output.push({ type: "text", text });
  }

  private startTurn(entry: Record<string, unknown>, text: string, source: JsonPath): void {
    const info = parseJson(text) ?? {};
    if (typeof info.request === "string") this.takeOutcomes(info.request);
    this.closeTurn();
    this.flushUser();
    this.requested = true;
    const facts: CallFacts = {};
    const time = isoTime(entry.ts);
    if (time !== undefined) facts.at = time;
    const usage = readReportedUsage(info);
    if (usage !== undefined) facts.usage = usage;
    this.cost = addCost(this.cost, info.cost);
    if (typeof info.request === "string") this.cwd ??= workspaceOf(info.request);
    this.turn = { blocks: [], calls: [], facts, source };
  }

  /**
   * The request after a turn holds what its tools returned, as the model got
   * it: it replaces what the panel showed. The panel shows fewer calls than the
   * request answers (a tool that did not run has no entry), so an outcome goes
   * to the next call of its tool's name, else to the next call.
   */
  private takeOutcomes(request: string): void {
    const open = [...(this.turn?.calls ?? [])];
    for (const outcome of open.length === 0 ? [] : outcomesInRequest(request)) {
      const position = Math.max(
        0,
        open.findIndex((call) => call.name === outcome.tool),
      );
      const call = open.splice(position, 1)[0];
      if (call === undefined) break;
      call.output = [{ type: "text", text: outcome.text }];
      this.paired.count += 1;
      this.paired.first ??= this.wire.length + 1;
    }
  }

  private openTurn(entry: Record<string, unknown>, source: JsonPath): Turn {
    if (this.turn === undefined) {
      this.flushUser();
      const time = isoTime(entry.ts);
      this.turn = { blocks: [], calls: [], facts: time === undefined ? {} : { at: time }, source };
    }
    const model = isRecord(entry.modelInfo) ? entry.modelInfo.modelId : undefined;
    if (typeof model === "string") this.turn.facts.model ??= model;
    return this.turn;
  }

  private addBlock(entry: Record<string, unknown>, source: JsonPath, block: Record<string, unknown>): void {
    this.openTurn(entry, source).blocks.push(block);
  }

  private addTool(entry: Record<string, unknown>, text: string, source: JsonPath): void {
    const { name, input, output } = panelTool(text);
    this.addCall(entry, source, name, input);
    if (output !== undefined) this.turn?.calls.at(-1)?.output.push({ type: "text", text: output });
  }

  private addCall(entry: Record<string, unknown>, source: JsonPath, name: string, input: Record<string, unknown>, awaitsAnswer = false): void {
    const turn = this.openTurn(entry, source);
    const id = `cline_ui_${String(source.at(-1))}`;
    turn.blocks.push({ type: "tool_use", id, name, input });
    turn.calls.push({ id, name, output: [], awaitsAnswer });
    this.generated.count += 1;
    this.generated.first ??= this.wire.length;
  }

  private closeTurn(): void {
    const turn = this.turn;
    this.turn = undefined;
    if (turn === undefined) return;
    if (turn.blocks.length === 0)
      return void this.skipped.set("api_req_started without an answer", (this.skipped.get("api_req_started without an answer") ?? 0) + 1);
    this.wire.push({ role: "assistant", content: turn.blocks, source: turn.source });
    this.wireFacts.push(turn.facts);
    for (const call of turn.calls) {
      if (call.output.length === 0) {
        this.empty.count += 1;
        this.empty.first ??= this.wire.length;
      }
      this.results.push({ type: "tool_result", tool_use_id: call.id, content: call.output });
    }
  }

  private flushUser(): void {
    const content = [...this.results, ...this.user.blocks];
    if (content.length > 0) {
      this.wire.push({ role: "user", content, source: this.user.source ?? this.wire.at(-1)?.source ?? this.prefix });
      this.wireFacts.push(this.user.at === undefined ? undefined : { at: this.user.at });
    }
    this.results = [];
    this.user = { blocks: [] };
  }
}
