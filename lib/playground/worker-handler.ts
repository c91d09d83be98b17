import { ContextError, ReplayCancelledError } from "@/lib/context";
// The error class only: the parsers (and zod) load with the first paste (./parse).
import { ImportError } from "@/lib/import/errors";
import type { PipelineHost } from "./pipeline-host";
import type { WorkerRequest, WorkerResponse } from "./protocol";
import { RunEncoder } from "./run-patch";

/**
 * The pipeline worker's side of the protocol, apart from the worker global so
 * tests can drive it: takes each request in the order posted, one at a time
 * (a run posted right behind an `open` waits for that history to arrive and
 * load, instead of finding no conversation), and answers through `reply`.
 */
export function createWorkerHandler(
  host: PipelineHost,
  reply: (response: WorkerResponse, transfer?: Transferable[]) => void,
): (request: WorkerRequest) => void {
  // Results go out as changes to the previous one; another conversation starts over.
  const results = new RunEncoder();
  async function handle(request: WorkerRequest): Promise<void> {
    try {
      switch (request.type) {
        case "prepare":
          await host.prepare(request.encoding);
          reply({ type: "started", id: request.id });
          break;
        case "prefetch":
          host.prefetch(request.branchId);
          reply({ type: "started", id: request.id });
          break;
        case "parse": {
          const [{ parsePasted }, text] = await Promise.all([
            import("./parse"),
            typeof request.text === "string" ? request.text : request.text.text(),
            host.prepare(),
          ]);
          results.reset();
          reply({
            type: "loaded",
            id: request.id,
            conversation: parsePasted(host, text, { filename: request.filename, conversation: request.conversation }),
          });
          break;
        }
        case "load":
          await host.prepare(request.encoding);
          results.reset();
          reply({
            type: "loaded",
            id: request.id,
            conversation: host.load(request.title, request.messages, request.tools, request.encoding, request.snapshot),
          });
          break;
        case "open": {
          const opened = await host.open(request.branchId, request.title, request.tools, request.encoding);
          results.reset();
          reply({ type: "opened", id: request.id, ...opened });
          break;
        }
        case "run": {
          const { wire, transfer } = results.encode(await host.run(request.input));
          reply({ type: "result", id: request.id, result: wire }, transfer);
          break;
        }
        case "step-histories":
          reply({ type: "step-histories", id: request.id, ...host.stepHistories(request.step) });
          break;
        case "count":
          reply({ type: "counted", id: request.id, tokens: host.countTexts(request.texts) });
          break;
        case "reload":
          reply({ type: "reloaded", id: request.id, handle: request.handle, content: await host.reload(request.handle) });
          break;
      }
    } catch (error) {
      if (ImportError.isInstance(error)) {
        reply({ type: "error", id: request.id, message: error.message, issues: [...error.issues], tooLarge: error.tooLarge });
      } else {
        reply({ type: "error", id: request.id, message: ContextError.isInstance(error) || error instanceof Error ? error.message : String(error) });
      }
    }
  }

  function fail(id: number, error: unknown): void {
    if (ReplayCancelledError.isInstance(error)) reply({ type: "error", id, message: error.message, cancelled: true });
    else reply({ type: "error", id, message: error instanceof Error ? error.message : String(error) });
  }

  // A comparison runs for a while: it starts in its turn (after a load posted before it) but
  // does not hold the queue, so runs keep answering, and its cancel is taken at once.
  const comparisons = new Map<number, AbortController>();
  async function compare(request: Extract<WorkerRequest, { type: "compare" }>, controller: AbortController): Promise<void> {
    try {
      const result = await host.compare(request.input, {
        signal: controller.signal,
        onProgress: (progress) => reply({ type: "compare-progress", id: request.id, progress }),
      });
      reply({ type: "compared", id: request.id, result });
    } catch (error) {
      fail(request.id, error);
    } finally {
      comparisons.delete(request.id);
    }
  }

  let queue: Promise<void> = Promise.resolve();
  return (request) => {
    if (request.type === "cancel") {
      comparisons.get(request.target)?.abort("cancelled by the user");
      reply({ type: "started", id: request.id });
    } else if (request.type === "compare") {
      // Registered now, so a cancel posted before the comparison's turn comes still stops it.
      const controller = new AbortController();
      comparisons.set(request.id, controller);
      void queue.then(() => compare(request, controller));
    } else {
      queue = queue.then(() => handle(request));
    }
  };
}
