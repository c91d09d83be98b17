import { ContextError } from "@/lib/context";
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
export function createWorkerHandler(host: PipelineHost, reply: (response: WorkerResponse, transfer?: Transferable[]) => void): (request: WorkerRequest) => void {
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
          const [{ parsePasted }] = await Promise.all([import("./parse"), host.prepare()]);
          results.reset();
          reply({ type: "loaded", id: request.id, conversation: parsePasted(host, request.text, { filename: request.filename, conversation: request.conversation }) });
          break;
        }
        case "load":
          await host.prepare(request.encoding);
          results.reset();
          reply({ type: "loaded", id: request.id, conversation: host.load(request.title, request.messages, request.tools, request.encoding, request.snapshot) });
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

  let queue: Promise<void> = Promise.resolve();
  return (request) => {
    queue = queue.then(() => handle(request));
  };
}
