import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { presetPolicy, type Message } from "@/lib/context";
import { resolveSettings, settingsForMode } from "@/lib/settings";
import { PipelineClient, PipelineWorkerError, type WorkerLike } from "./pipeline-client";
import { PipelineHost } from "./pipeline-host";
import type { WorkerRequest, WorkerResponse } from "./protocol";
import { createWorkerHandler } from "./worker-handler";

const sample = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "..", "tests", "fixtures", "tau-bench-airline-sample.json"), "utf8")) as {
  traj: Message[];
}[];
const prices = { input: 2.5, cachedInput: 1.25, output: 10 };

/** The worker's handler behind a `postMessage` pair, as the Web Worker runs it. */
function loopbackWorker(): WorkerLike & { posted: WorkerRequest[] } {
  const posted: WorkerRequest[] = [];
  const worker: WorkerLike & { posted: WorkerRequest[] } = {
    posted,
    onmessage: null,
    postMessage(message) {
      posted.push(message);
      handle(message);
    },
    terminate() {},
  };
  const handle = createWorkerHandler(new PipelineHost(), (response: WorkerResponse) =>
    queueMicrotask(() => worker.onmessage?.({ data: response } as MessageEvent<WorkerResponse>)),
  );
  return worker;
}

const policies = () => [
  { id: "current", label: "Copilot", policy: resolveSettings(settingsForMode("copilot")).policy },
  { id: "masking", label: "Observation masking", policy: presetPolicy("observation_masking") },
];

describe("comparisons in the pipeline worker", () => {
  it("[E-RP9] replays the loaded conversation under raw and the policies, reporting progress to the last call, while runs still answer", async () => {
    const client = new PipelineClient(loopbackWorker());
    await client.load("task", sample[0].traj);
    const progress: { policy: string; done: number; total: number; finished: number }[] = [];
    const job = client.compare({ policies: policies(), prices }, (update) => progress.push(update));
    const run = await client.run({ settings: resolveSettings(settingsForMode("navigator")) });
    expect(run?.history.length).toBeGreaterThan(0);
    const result = await job.result;
    const assistantTurns = sample[0].traj.filter((message) => message.role === "assistant").length;
    expect(result.runs.map((entry) => entry.id)).toEqual(["raw", "current", "masking"]);
    expect(result.runs.every((entry) => entry.replay.calls.length === assistantTurns)).toBe(true);
    expect(result.runs[0].replay.totals.inputTokens).toBeGreaterThanOrEqual(result.runs[2].replay.totals.inputTokens);
    expect(result.runs[0].replay.totals.cost?.total).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ policy: "masking", done: assistantTurns, total: assistantTurns, finished: 2 });
    expect(new Set(progress.map((update) => update.policy))).toEqual(new Set(["raw", "current", "masking"]));
    client.dispose();
  });

  it("[E-RP9] stops a comparison on cancel: it rejects as cancelled and the worker takes the next request", async () => {
    const worker = loopbackWorker();
    const client = new PipelineClient(worker);
    await client.load("task", sample[0].traj);
    const job = client.compare({ policies: policies(), prices: null });
    job.cancel();
    const failure = await job.result.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PipelineWorkerError);
    expect((failure as PipelineWorkerError).cancelled).toBe(true);
    expect(worker.posted.map((request) => request.type)).toEqual(["load", "compare", "cancel"]);
    const again = await client.compare({ policies: policies().slice(1), prices: null }).result;
    expect(again.runs.map((entry) => entry.id)).toEqual(["raw", "masking"]);
    client.dispose();
  });
});
