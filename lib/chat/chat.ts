import "server-only";
import {
  createExchange,
  getBranchById,
  getConversationById,
  getHistoryByBranchId,
  updateExchangeById,
  type ConversationRecord,
  type Database,
  type JsonObject,
  type JsonValue,
} from "@/lib/db";
import { recordMessages, type CompactionResult } from "@/lib/memory";
import { resolveUpstream, type UpstreamConfig } from "@/lib/upstream";
import { chatRequestBody } from "@/lib/request";
import { prepareNextRequest, type PreparedRequest } from "@/lib/request/server";
import { conversationSettings } from "@/lib/settings/server";
import { NOT_CONFIGURED_MESSAGE, RecorderError } from "./errors";
import { publishAppended, publishExchange } from "./live";
import { createRecorderSummarizer, type RecorderSummarizer } from "./summarizer";
import { turnMessages } from "./turn";
import type { ChatDelta, ChatPromptStatus, ChatTurnInput, ChatTurnOutcome, ChatTurnRecorded, WrittenCheckpoint } from "./types";
import { pendingToolCalls } from "./types";
import { callUpstream } from "./upstream";

/** Branches with a chat turn running in this process: one at a time each, so a reply lands right after its turn. */
const RUNNING_KEY = Symbol.for("context-lab.recorder.running");
const globalForRunning = globalThis as typeof globalThis & { [RUNNING_KEY]?: Set<string> };
const running = (globalForRunning[RUNNING_KEY] ??= new Set());

export interface ChatTurnOptions {
  /** Aborts the model call (the browser went away, or pressed Stop); the turn stays recorded. */
  signal?: AbortSignal;
}

function written(compaction: CompactionResult, when: WrittenCheckpoint["when"]): WrittenCheckpoint {
  const { checkpoint, summary } = compaction;
  const reason = checkpoint.metadata?.reason;
  return {
    checkpointId: checkpoint.id,
    version: checkpoint.version,
    branchId: checkpoint.branchId,
    summaryId: summary.id,
    fromPosition: summary.fromPosition,
    toPosition: summary.toPosition,
    reason: typeof reason === "string" ? reason : "threshold",
    when,
  };
}

function promptStatus({ request, compaction }: PreparedRequest): ChatPromptStatus {
  const { verdict } = request;
  return { status: !verdict.ok ? "budget_exceeded" : compaction ? "compacted" : "ok", messages: verdict.ok ? request.messages.length : 0, verdict };
}

/** The upstream request: the next request's exact body, streamed with usage when asked. */
function upstreamBody({ request }: PreparedRequest, stream: boolean): Record<string, unknown> {
  return { ...chatRequestBody(request), stream, ...(stream ? { stream_options: { include_usage: true } } : {}) };
}

/**
 * One chat turn on a branch, in two steps: `startChatTurn` checks and
 * records the new turn (so refusals come before anything is written), then
 * `answer` assembles the prompt, calls the upstream and records the reply.
 */
export class ChatTurn {
  private answered = false;

  constructor(
    private readonly db: Database,
    private readonly branchId: string,
    private readonly conversation: ConversationRecord,
    private readonly upstream: UpstreamConfig,
    private readonly summarizing: RecorderSummarizer,
    /** History length once the turn is recorded. */
    private readonly length: number,
    readonly turn: ChatTurnRecorded,
    private readonly stream: boolean,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Assembles the prompt (compacting when due), asks the model and records its reply; releases the branch. Call once. */
  async answer(onDelta?: (delta: ChatDelta) => void): Promise<ChatTurnOutcome> {
    if (this.answered) throw new Error("a chat turn is answered once");
    this.answered = true;
    try {
      return await this.run(onDelta);
    } finally {
      running.delete(this.branchId);
    }
  }

  /** Releases the branch without asking the model (the caller gave up before `answer`). */
  abandon(): void {
    if (!this.answered) running.delete(this.branchId);
    this.answered = true;
  }

  private async run(onDelta?: (delta: ChatDelta) => void): Promise<ChatTurnOutcome> {
    const { db, branchId, summarizing } = this;
    const checkpoints: WrittenCheckpoint[] = [];
    const recorded = [...this.turn.recorded];
    const soFar = () => ({ recorded, checkpoints, summarizer: summarizing.report });
    // What the playground shows as the next request is what is sent: the same builder, here allowed to compact.
    const prepared = await prepareNextRequest(db, branchId, { compact: true, summarizer: summarizing.summarizer });
    if (prepared.compaction) checkpoints.push(written(prepared.compaction, "prompt"));
    const status = promptStatus(prepared);
    const { verdict } = prepared.request;
    if (!verdict.ok) {
      return {
        status: "budget_exceeded",
        budget: verdict.limit,
        tokens: verdict.tokens.total,
        reason: verdict.reason ?? "the request does not fit",
        ...soFar(),
        prompt: status,
      };
    }
    const body = upstreamBody(prepared, this.stream);
    let exchange = await createExchange(db, branchId, { request: body, streamed: this.stream });
    const details = { requestMessages: prepared.request.messages.length, model: prepared.request.model };
    publishExchange("exchange-started", exchange, details);
    const started = performance.now();
    const result = await callUpstream(this.upstream, body, { signal: this.signal, onDelta });
    const durationMs = Math.round(performance.now() - started);
    if (!result.ok) {
      exchange = await updateExchangeById(db, exchange.id, { response: result.response, status: result.error.status, error: result.error, durationMs });
      publishExchange("exchange-recorded", exchange, details);
      return { status: "error", error: result.error, exchangeId: exchange.id, ...soFar(), prompt: status };
    }
    const { reply, model, finishReason, usage } = result.outcome;
    const metadata: JsonObject = { recorder: "chat", exchangeId: exchange.id, model, finishReason, usage: (usage as JsonObject | null) ?? null };
    const stored = await recordMessages(db, branchId, [reply!], { summarizer: summarizing.summarizer, expectedLength: this.length, metadata: [metadata] });
    const message = stored.messages[0];
    recorded.push(message);
    if (stored.compaction) checkpoints.push(written(stored.compaction, "reply"));
    publishAppended(this.conversation, branchId, stored.messages);
    exchange = await updateExchangeById(db, exchange.id, { response: result.response, status: result.status, error: null, durationMs });
    publishExchange("exchange-recorded", exchange, {
      ...details,
      replyBranchId: branchId,
      model: model ?? details.model,
      usage: (usage as JsonValue | null) ?? null,
      finishReason,
    });
    return {
      status: "ok",
      message,
      pendingToolCalls: pendingToolCalls([message.message]),
      model,
      finishReason,
      usage: (usage as JsonValue | null) ?? null,
      exchangeId: exchange.id,
      ...soFar(),
      prompt: status,
    };
  }
}

/**
 * Checks a chat request against the branch and records its turn (tool
 * results, then the user's message) with `recordMessages`, so thresholds
 * write summaries and checkpoints. Refuses, before writing anything: no
 * upstream configured (409), another turn running on the branch (409),
 * results that do not answer the pending calls (422).
 */
export async function startChatTurn(db: Database, branchId: string, input: ChatTurnInput, options: ChatTurnOptions = {}): Promise<ChatTurn> {
  const upstream = resolveUpstream();
  if (!upstream) throw new RecorderError(409, "upstream_not_configured", NOT_CONFIGURED_MESSAGE);
  if (running.has(branchId)) {
    throw new RecorderError(
      409,
      "chat_in_progress",
      `a chat turn is already running on branch ${branchId}: wait for its answer, then send again; nothing was recorded`,
    );
  }
  running.add(branchId);
  try {
    const branch = await getBranchById(db, branchId);
    const conversation = await getConversationById(db, branch.conversationId);
    const history = await getHistoryByBranchId(db, branchId);
    const messages = turnMessages(
      history.map((record) => record.message),
      input,
    );
    const settings = await conversationSettings(db, conversation);
    const summarizing = createRecorderSummarizer(upstream, settings.policy.model, options.signal);
    const turn: ChatTurnRecorded = { recorded: [] };
    if (messages.length > 0) {
      // The turn is stored as it is; the request compacts when due, and not at all when it will be refused (E-RB7).
      const result = await recordMessages(db, branchId, messages, {
        compact: false,
        expectedLength: history.length,
        metadata: messages.map(() => ({ recorder: "chat" })),
      });
      turn.recorded = result.messages;
      publishAppended(conversation, branchId, result.messages);
    }
    return new ChatTurn(db, branchId, conversation, upstream, summarizing, history.length + messages.length, turn, input.stream !== false, options.signal);
  } catch (error) {
    running.delete(branchId);
    throw error;
  }
}
