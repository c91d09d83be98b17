import "server-only";
import type { Message, ToolDefinition } from "@/lib/context";
import { createProxyCall, endJournaledCall, newProxyCallId, type Database, type JsonObject } from "@/lib/db";
import type { CompletionOutcome } from "@/lib/upstream/assemble";
import type { PipelineStepSummary } from "./proxied-request";
import { yieldToIo } from "@/lib/memory/slices";
import { getProxyRecorder, type JournaledOutcome, type JournaledRequest, type RecordedRequest, type RecordRequestOptions } from "./journal";
import { perDatabase } from "@/lib/db/per-database";
import type { ReloadRound } from "./reload";

/**
 * A slow upstream's call gets its request placed into its conversation after
 * this long, so an open tab sees the agent's new turn while the model is
 * still thinking. A faster upstream answers first and the request is placed
 * with the outcome, its turns and the reply in one write: placing takes CPU
 * time (token counting, synchronous SQLite) that would otherwise hold back the
 * answer's first bytes.
 */
export const RECORD_REQUEST_AFTER_MS = 250;

/** What a protocol handler says about a call as it starts (protocol-neutral: canonical messages, the bodies as JSON). */
export interface ProxyCallOptions {
  /** The agent's identity key. */
  key: string;
  /** The protocol's name (`openai-chat`...): a journaled request is read again with its reader after a restart. */
  protocol: string;
  /** The messages came from earlier calls too (a Responses continuation), so the journal keeps them, not only the body. */
  continued: boolean;
  /** The agent's body as it came. */
  request: unknown;
  /** The request's messages, read by `lib/formats`. */
  messages: Message[];
  tools: ToolDefinition[] | null;
  /** The body forwarded after the context pipeline; null when passed through. */
  sent: unknown;
  /** Messages in `sent`, for the exchange's summary; null when passed through. */
  sentMessages: number | null;
  streamed: boolean;
  pipeline: PipelineStepSummary[] | null;
}

/** How a call ended, as its handler knows it. */
export interface CallOutcome {
  /** HTTP status returned to the agent. */
  status: number;
  /** The upstream's body (parsed JSON, or text), or the assembled stream. */
  response: unknown;
  error: JsonObject | null;
  completion: CompletionOutcome | null;
  /** The `reload_offloaded` calls the proxy answered itself. */
  reloads?: ReloadRound[];
}

/** Agents whose last journaled call is kept as the base of their next one's deltas (PX-C1); the least recently seen goes first. */
const PREVIOUS_CALLS = 1_000;

/** A journaled call's bodies as its successor's deltas are made against. */
interface JournaledBodies {
  id: string;
  request: unknown;
  sent: unknown;
}

const previousCalls = perDatabase<JournaledBodies>("previous-journaled-calls", PREVIOUS_CALLS);

/**
 * One proxied call (PX-D5): its request is journaled (`journaled`, committed)
 * before the agent gets any byte, its outcome journaled by `finish` before
 * the agent gets the end of the answer; placing both into the conversation
 * is queued on the recorder, off the response path. A crash between the two
 * leaves the journal row, which the next start places.
 */
export class RecordedCall {
  readonly started = performance.now();
  /** Resolves once the request is committed to the journal; the handler awaits it before answering. */
  readonly journaled: Promise<string>;
  /** The journal row's id, named before it is written so the outcome can be queued behind it. */
  private readonly journalId = newProxyCallId();
  /** Resolves once the request's INSERT is queued: the outcome's UPDATE may be queued after it from then on. */
  private readonly queued: Promise<void>;
  private recording: Promise<RecordedRequest> | null = null;
  /** Whether the request's INSERT is committed: a call is placed only then. */
  private committed = false;
  private readonly timer: ReturnType<typeof setTimeout>;
  private finished!: () => void;
  private ended: Promise<void> | null = null;

  constructor(
    readonly db: Database,
    private readonly options: ProxyCallOptions,
  ) {
    getProxyRecorder().recoverOnce(db);
    getProxyRecorder().track(new Promise<void>((resolve) => (this.finished = resolve)));
    // PX-C1: what the request's own body says is not journaled twice; a continuation's history is.
    const details: JournaledRequest = {
      protocol: options.protocol,
      ...(options.continued ? { messages: options.messages } : {}),
      tools: options.tools,
      sentMessages: options.sentMessages,
      pipeline: options.pipeline,
    };
    const calls = previousCalls(db);
    const { key, request, sent, streamed } = options;
    let queued!: () => void;
    this.queued = new Promise<void>((resolve) => (queued = resolve));
    // D5.1: journaled while the upstream is called: the insert (and the delta it writes) starts once the call is on its way.
    this.journaled = yieldToIo()
      .then(() => {
        const written = createProxyCall(db, { id: this.journalId, key, request, sent, streamed, details, previous: calls.get(key) });
        queued();
        return written;
      })
      .then((row) => {
        calls.set(key, { id: row.id, request, sent });
        this.committed = true;
        return row.id;
      });
    // A call whose request could not be journaled is refused by its handler; nothing is left to place.
    this.journaled.catch(() => this.finished());
    this.timer = setTimeout(() => void this.journaled.then(() => this.recordRequest()).catch(() => undefined), RECORD_REQUEST_AFTER_MS);
    this.timer.unref?.();
  }

  get key(): string {
    return this.options.key;
  }

  /** What the recorder places: the journaled request in canonical form. */
  private request(): RecordRequestOptions {
    if (!this.committed) throw new Error("a call is placed only once its request is journaled");
    const { key, request, messages, tools, sent, sentMessages, streamed } = this.options;
    return { id: this.journalId, key, request, messages, tools, sent, sentMessages, streamed };
  }

  /** Queues the request's placement (once, synchronously, so the outcome queued next comes after it) and returns it. */
  private recordRequest(): Promise<RecordedRequest> {
    if (!this.recording) {
      clearTimeout(this.timer);
      this.recording = getProxyRecorder().recordRequest(this.db, this.request());
    }
    return this.recording;
  }

  /**
   * Journals the outcome (committed when this resolves; it rejects when the
   * journal cannot be written, and the agent must then not see success),
   * then queues its placement behind the request's. Once per call: later
   * calls return the first one's promise.
   */
  finish(outcome: CallOutcome): Promise<void> {
    this.ended ??= this.end(outcome);
    return this.ended;
  }

  private async end(outcome: CallOutcome): Promise<void> {
    clearTimeout(this.timer);
    const durationMs = performance.now() - this.started;
    const pipeline = this.options.pipeline;
    try {
      await this.queued;
      const journaledOutcome: JournaledOutcome = { completion: outcome.completion, reloads: outcome.reloads ?? null };
      const ended = { response: outcome.response, status: outcome.status, error: outcome.error, durationMs, outcome: journaledOutcome };
      // Behind the request's INSERT, not after its commit: an answer that came before that INSERT went out shares its commit.
      await endJournaledCall(this.db, { id: this.journalId, written: this.journaled }, ended);
    } catch (error) {
      this.finished();
      throw error;
    }
    // Deferred to the end of this turn of the event loop, so the answer's last bytes are written first.
    setImmediate(() => {
      const ended = { ...outcome, pipeline, reloads: outcome.reloads ?? null, durationMs };
      const recorder = getProxyRecorder();
      // An answer that came before the request was placed is placed with it, in one write.
      void (this.recording ? recorder.recordOutcome(this.db, this.key, this.recording, ended) : recorder.recordCall(this.db, this.request(), ended));
      this.finished();
    });
  }
}
