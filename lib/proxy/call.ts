import "server-only";
import type { Database } from "@/lib/db";
import type { PipelineStepSummary } from "./pipeline";
import { getProxyRecorder, type RecordedRequest, type RecordOutcomeOptions, type RecordRequestOptions } from "./recorder";

/**
 * A slow upstream's call gets its request recorded after this long, so an
 * open tab sees the agent's new turn while the model is still thinking. A
 * faster upstream answers first and the request is recorded with the
 * outcome: recording takes CPU time (token counting, synchronous SQLite)
 * that would otherwise hold back the answer's first bytes.
 */
export const RECORD_REQUEST_AFTER_MS = 250;

export type CallOutcome = Omit<RecordOutcomeOptions, "durationMs" | "pipeline">;

/** One proxied call, as far as recording goes: its request, then its outcome, each queued once, in that order. */
export class RecordedCall {
  readonly started = performance.now();
  private recording: Promise<RecordedRequest> | null = null;
  private readonly timer: ReturnType<typeof setTimeout>;
  private finished!: () => void;
  private ended = false;

  constructor(
    readonly db: Database,
    private readonly request: RecordRequestOptions,
    private readonly pipeline: PipelineStepSummary[] | null,
  ) {
    this.timer = setTimeout(() => void this.recordRequest(), RECORD_REQUEST_AFTER_MS);
    this.timer.unref?.();
    getProxyRecorder().track(new Promise<void>((resolve) => (this.finished = resolve)));
  }

  get key(): string {
    return this.request.key;
  }

  /** Queues the request's recording (once) and returns it. */
  recordRequest(): Promise<RecordedRequest> {
    if (!this.recording) {
      clearTimeout(this.timer);
      this.recording = getProxyRecorder().recordRequest(this.db, this.request);
      this.recording.catch((error: unknown) => console.error(`[proxy] could not record a request of '${this.key}':`, error));
    }
    return this.recording;
  }

  /**
   * Queues the outcome behind the request. Deferred to the end of this turn
   * of the event loop, so the answer's last bytes are written first; still
   * before the agent's next request can arrive (that takes I/O, which comes
   * after). Called once per call, whatever the outcome.
   */
  finish(outcome: CallOutcome): void {
    if (this.ended) return;
    this.ended = true;
    const durationMs = performance.now() - this.started;
    setImmediate(() => {
      void getProxyRecorder().recordOutcome(this.db, this.key, this.recordRequest(), { ...outcome, pipeline: this.pipeline, durationMs });
      this.finished();
    });
  }
}
