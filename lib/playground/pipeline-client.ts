import type { CompareProgress, CompareResult, EncodingName, Message, ToolDefinition } from "@/lib/context/light";
import type { ImportIssue } from "@/lib/import";
import type { MemorySnapshot } from "@/lib/request";
import type { CompareInput, LoadedConversation, OpenedBranch, RunInput, RunResult, WorkerRequest, WorkerResponse } from "./protocol";
import { RunDecoder } from "./run-patch";

/** A request the worker refused: the message, and for bad input the import issues. */
export class PipelineWorkerError extends Error {
  readonly issues: ImportIssue[];
  readonly tooLarge?: { bytes: number; limit: number };
  /** A comparison stopped on request. */
  readonly cancelled: boolean;

  constructor(message: string, issues: ImportIssue[] = [], tooLarge?: { bytes: number; limit: number }, cancelled = false) {
    super(message);
    this.name = "PipelineWorkerError";
    this.issues = issues;
    this.tooLarge = tooLarge;
    this.cancelled = cancelled;
  }
}

/** A response as the client hands it on: results made whole again. */
type ClientResponse = Exclude<WorkerResponse, { type: "result" | "compare-progress" }> | { type: "result"; id: number; result: RunResult };
type Pending = { resolve: (response: ClientResponse) => void; reject: (error: Error) => void };
type RequestBody<T extends WorkerRequest["type"]> = Omit<Extract<WorkerRequest, { type: T }>, "id">;

/** The worker's side of the conversation, as `postMessage` sees it. */
export interface WorkerLike {
  postMessage(message: WorkerRequest, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<WorkerResponse>) => void) | null;
  terminate(): void;
}

export function createPipelineWorker(): WorkerLike {
  return new Worker(new URL("./pipeline.worker.ts", import.meta.url), { type: "module", name: "context-lab-pipeline" }) as unknown as WorkerLike;
}

let prestarted: PipelineClient | undefined;

/**
 * Starts a pipeline client and its worker now, for the next `takePipeline()`:
 * a page that will need one calls this as its script loads, so the worker's
 * code downloads and evaluates while the page hydrates. Returns it (to
 * `prepare` an encoding or `prefetchHistory`), or `undefined` outside a browser.
 */
export function prestartPipeline(): PipelineClient | undefined {
  if (typeof window === "undefined" || typeof Worker === "undefined") return undefined;
  prestarted ??= new PipelineClient();
  return prestarted;
}

/** The client `prestartPipeline` started, if still untaken, else a new one. */
export function takePipeline(): PipelineClient {
  const client = prestarted ?? new PipelineClient();
  prestarted = undefined;
  return client;
}

/**
 * The main thread's handle on the pipeline worker. Runs coalesce: while one
 * runs, only the newest settings wait, so dragging a slider re-runs as fast as
 * the worker can go and the view always ends on the latest settings.
 */
export class PipelineClient {
  private readonly worker: WorkerLike;
  private readonly pending = new Map<number, Pending>();
  private readonly progress = new Map<number, (progress: CompareProgress) => void>();
  private readonly results = new RunDecoder();
  private nextId = 1;
  private running = false;
  private queued?: { input: RunInput; resolve: (result: RunResult | undefined) => void; reject: (error: Error) => void };
  private readonly prepared = new Set<EncodingName>();
  /** Encodings whose ranks the worker is still loading, in the order asked. */
  private readonly loadingEncodings = new Set<EncodingName>();
  private readonly tokenizerListeners = new Set<(loading: EncodingName | null) => void>();
  private prefetched?: string;

  constructor(worker: WorkerLike = createPipelineWorker()) {
    this.worker = worker;
    this.worker.onmessage = (event) => {
      const response = event.data;
      if (response.type === "compare-progress") {
        this.progress.get(response.id)?.(response.progress);
        return;
      }
      const waiting = this.pending.get(response.id);
      this.pending.delete(response.id);
      let whole: ClientResponse;
      try {
        // Every result is decoded, awaited or not: the next one comes as changes to it.
        whole = response.type === "result" ? { ...response, result: this.results.decode(response.result) } : response;
      } catch (error) {
        waiting?.reject(error as Error);
        return;
      }
      if (!waiting) return;
      if (whole.type === "error") waiting.reject(new PipelineWorkerError(whole.message, whole.issues, whole.tooLarge, whole.cancelled));
      else waiting.resolve(whole);
    };
  }

  private request<T extends WorkerRequest["type"]>(body: RequestBody<T>): Promise<ClientResponse> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...body, id } as unknown as WorkerRequest);
    });
  }

  /** Has the worker load an encoding's ranks now, ahead of the first count (once per encoding). */
  prepare(encoding: EncodingName): void {
    if (this.prepared.has(encoding)) return;
    this.prepared.add(encoding);
    this.loadingEncodings.add(encoding);
    this.notifyTokenizer();
    const settled = () => {
      this.loadingEncodings.delete(encoding);
      this.notifyTokenizer();
    };
    // The worker answers once the ranks are loaded. A failure shows where the encoding is used.
    this.request<"prepare">({ type: "prepare", encoding }).then(settled, () => {
      this.prepared.delete(encoding);
      settled();
    });
  }

  /**
   * Follows the tokenizer the worker is loading (an encoding's ranks, fetched
   * the first time a conversation counts with it), or null when none is: at
   * once with the current state, then on every change.
   */
  onTokenizer(listener: (loading: EncodingName | null) => void): () => void {
    this.tokenizerListeners.add(listener);
    listener(this.loadingTokenizer());
    return () => this.tokenizerListeners.delete(listener);
  }

  private loadingTokenizer(): EncodingName | null {
    return this.loadingEncodings.values().next().value ?? null;
  }

  private notifyTokenizer(): void {
    const loading = this.loadingTokenizer();
    for (const listener of this.tokenizerListeners) listener(loading);
  }

  /**
   * Has the worker start reading a branch's stored history now, for the `open`
   * of that branch to come. Asked before `prepare`, the history and the ranks
   * download at once.
   */
  prefetchHistory(branchId: string): void {
    if (this.prefetched === branchId) return;
    this.prefetched = branchId;
    this.request<"prefetch">({ type: "prefetch", branchId }).catch(() => undefined);
  }

  /** Parses pasted text, or a file (read in the worker, never on the page), as the import does, and loads it. */
  async parse(text: string | Blob, filename?: string, conversation?: number): Promise<LoadedConversation> {
    const response = await this.request<"parse">({ type: "parse", text, filename, conversation });
    return (response as Extract<ClientResponse, { type: "loaded" }>).conversation;
  }

  async load(title: string, messages: Message[], tools?: ToolDefinition[], encoding?: EncodingName, snapshot?: MemorySnapshot): Promise<LoadedConversation> {
    const response = await this.request<"load">({ type: "load", title, messages, tools, encoding, snapshot });
    return (response as Extract<ClientResponse, { type: "loaded" }>).conversation;
  }

  /**
   * Has the worker read a branch's stored history (`GET /api/branches/[id]/messages`,
   * fetched and parsed off this thread) and load it. The request takes its turn
   * at once, so a run asked for next runs on this branch.
   */
  async open(branchId: string, title: string, tools?: ToolDefinition[], encoding?: EncodingName): Promise<OpenedBranch> {
    if (this.prefetched === branchId) this.prefetched = undefined;
    if (encoding) this.prepare(encoding);
    const response = (await this.request<"open">({ type: "open", branchId, title, tools, encoding })) as Extract<ClientResponse, { type: "opened" }>;
    return { conversation: response.conversation, records: response.records };
  }

  /** Resolves with the run's result, or `undefined` when newer input superseded it before it started. */
  run(input: RunInput): Promise<RunResult | undefined> {
    // Another model may count with another encoding: its ranks load first, and the page says so.
    this.prepare(input.settings.policy.encoding);
    return new Promise((resolve, reject) => {
      this.queued?.resolve(undefined);
      this.queued = { input, resolve, reject };
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.running || !this.queued) return;
    const job = this.queued;
    this.queued = undefined;
    this.running = true;
    try {
      const response = await this.request<"run">({ type: "run", input: job.input });
      job.resolve((response as Extract<ClientResponse, { type: "result" }>).result);
    } catch (error) {
      job.reject(error as Error);
    } finally {
      this.running = false;
      void this.drain();
    }
  }

  async stepHistories(step: number): Promise<{ before: Message[]; after: Message[] }> {
    const response = (await this.request<"step-histories">({ type: "step-histories", step })) as Extract<ClientResponse, { type: "step-histories" }>;
    return { before: response.before, after: response.after };
  }

  async countTexts(texts: string[]): Promise<number[]> {
    const response = (await this.request<"count">({ type: "count", texts })) as Extract<ClientResponse, { type: "counted" }>;
    return response.tokens;
  }

  async reload(handle: string): Promise<string> {
    const response = (await this.request<"reload">({ type: "reload", handle })) as Extract<ClientResponse, { type: "reloaded" }>;
    return response.content;
  }

  /**
   * Replays the loaded conversation under raw and the policies in the worker,
   * beside runs. `cancel` stops it: `result` then rejects with a
   * `PipelineWorkerError` whose `cancelled` is true.
   */
  compare(input: CompareInput, onProgress?: (progress: CompareProgress) => void): { result: Promise<CompareResult>; cancel(): void } {
    const id = this.nextId;
    if (onProgress) this.progress.set(id, onProgress);
    const result = this.request<"compare">({ type: "compare", input })
      .then((response) => (response as Extract<ClientResponse, { type: "compared" }>).result)
      .finally(() => this.progress.delete(id));
    return { result, cancel: () => void this.request<"cancel">({ type: "cancel", target: id }).catch(() => undefined) };
  }

  dispose(): void {
    this.worker.terminate();
    for (const waiting of this.pending.values()) waiting.reject(new PipelineWorkerError("the pipeline worker was stopped"));
    this.pending.clear();
  }
}
