/// <reference lib="webworker" />
import { PipelineHost } from "./pipeline-host";
import type { WorkerRequest, WorkerResponse } from "./protocol";
import { createWorkerHandler } from "./worker-handler";

// The playground's pipeline runs here, off the main thread, so sliders stay smooth.
const scope = self as unknown as DedicatedWorkerGlobalScope;
const handle = createWorkerHandler(new PipelineHost(), (response: WorkerResponse, transfer: Transferable[] = []) => scope.postMessage(response, transfer));
scope.onmessage = (event: MessageEvent<WorkerRequest>) => handle(event.data);
