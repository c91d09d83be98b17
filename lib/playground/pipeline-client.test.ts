import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { sharedCounter, type Message } from "@/lib/context";
import { ApiError } from "@/lib/client/errors";
import type { MessageRecord } from "@/lib/db";
import { PipelineClient, PipelineWorkerError, type WorkerLike } from "./pipeline-client";
import { PipelineHost } from "./pipeline-host";
import type { WorkerRequest, WorkerResponse } from "./protocol";
import { emptySnapshot } from "@/lib/request";
import { resolveSettings, settingsForMode, type Settings } from "@/lib/settings";

const input = (settings: Settings) => ({ settings: resolveSettings(settings) });
import { createWorkerHandler } from "./worker-handler";

const sample = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "..", "tests", "fixtures", "tau-bench-airline-sample.json"), "utf8")) as {
  traj: Message[];
}[];
const records = (messages: Message[], branchId = "b1"): MessageRecord[] =>
  messages.map((message, position) => ({ id: `m${position}`, branchId, position, tokens: 1, createdAt: "2025-01-01T00:00:00.000Z", metadata: null, message }));

/** The worker's handler in this process, every message structured-cloned (transfers included) and delivered a task later, as postMessage does. */
function inProcessWorker(
  getBranchMessages: (branchId: string) => Promise<MessageRecord[]> = async () => [],
): WorkerLike & { requests: WorkerRequest["type"][] } {
  const worker: WorkerLike & { requests: WorkerRequest["type"][] } = {
    requests: [],
    onmessage: null,
    terminate() {},
    postMessage(message, transfer = []) {
      worker.requests.push(message.type);
      const copy = structuredClone(message, { transfer });
      setTimeout(() => handle(copy));
    },
  };
  const handle = createWorkerHandler(
    new PipelineHost({ getBranchMessages, getBranchMemory: async (branchId) => emptySnapshot(branchId) }),
    (response: WorkerResponse, transfer: Transferable[] = []) => {
      const copy = structuredClone(response, { transfer });
      setTimeout(() => worker.onmessage?.({ data: copy } as MessageEvent<WorkerResponse>));
    },
  );
  return worker;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((yes) => (resolve = yes));
  return { promise, resolve };
}

describe("PipelineClient's tokenizer state", () => {
  it("says which tokenizer the worker is loading until the worker has it, for a prepare and for a run on another encoding", async () => {
    const posted: WorkerRequest[] = [];
    const worker: WorkerLike = {
      onmessage: null,
      terminate() {},
      postMessage(message) {
        posted.push(message);
      },
    };
    const client = new PipelineClient(worker);
    const seen: (string | null)[] = [];
    const stop = client.onTokenizer((loading) => seen.push(loading));
    client.prepare("o200k_base");
    client.prepare("o200k_base");
    expect(seen).toEqual([null, "o200k_base"]);
    expect(posted.filter((request) => request.type === "prepare")).toHaveLength(1);
    worker.onmessage?.({ data: { type: "started", id: posted[0].id } } as MessageEvent<WorkerResponse>);
    await new Promise((resolve) => setTimeout(resolve));
    expect(seen).toEqual([null, "o200k_base", null]);
    // gpt-4 counts with cl100k_base: the run asks for those ranks first.
    void client.run(input({ ...settingsForMode("copilot"), model: "gpt-4" }));
    expect(seen.at(-1)).toBe("cl100k_base");
    expect(posted.filter((request) => request.type === "prepare").map((request) => (request as { encoding: string }).encoding)).toEqual([
      "o200k_base",
      "cl100k_base",
    ]);
    stop();
    worker.onmessage?.({
      data: { type: "started", id: posted.find((request) => request.type === "prepare" && request.encoding === "cl100k_base")!.id },
    } as MessageEvent<WorkerResponse>);
    await new Promise((resolve) => setTimeout(resolve));
    expect(seen.at(-1)).toBe("cl100k_base");
  });
});

describe("PipelineClient with the worker's handler", () => {
  it("has the worker read a branch, and a run asked for right behind it runs on that branch", async () => {
    const stored = records(sample[0].traj);
    const history = deferred<MessageRecord[]>();
    const worker = inProcessWorker(() => history.promise);
    const client = new PipelineClient(worker);
    const opened = client.open("b1", "task 0", undefined, "o200k_base");
    const run = client.run(input(settingsForMode("copilot")));
    // The run waits in the worker's queue for the history, which arrives last.
    await new Promise((resolve) => setTimeout(resolve, 10));
    history.resolve(stored);
    const [{ conversation, records: fetched }, result] = await Promise.all([opened, run]);
    expect(fetched).toEqual(stored);
    expect(conversation.messages).toHaveLength(stored.length);
    expect(conversation.tokens).toEqual(sharedCounter("o200k_base").countEach(conversation.messages));
    expect(result?.kept).toHaveLength(stored.length);
    // The encoding's ranks are asked for once, ahead of the open that counts with them.
    expect(worker.requests).toEqual(["prepare", "open", "run"]);
  });

  it("reads a prefetched history once, for that branch only", async () => {
    const read: string[] = [];
    const worker = inProcessWorker(async (branchId) => {
      read.push(branchId);
      return records(sample[branchId === "b1" ? 0 : 1].traj, branchId);
    });
    const client = new PipelineClient(worker);
    client.prefetchHistory("b1");
    client.prefetchHistory("b1");
    client.prepare("o200k_base");
    client.prepare("o200k_base");
    expect((await client.open("b1", "t", undefined, "o200k_base")).records).toHaveLength(sample[0].traj.length);
    expect((await client.open("b2", "t")).records).toHaveLength(sample[1].traj.length);
    expect(read).toEqual(["b1", "b2"]);
    expect(worker.requests).toEqual(["prefetch", "prepare", "open", "open"]);
  });

  it("fails the open with the API's message when the history cannot be read, and loads the next one", async () => {
    const client = new PipelineClient(inProcessWorker(async () => Promise.reject(new ApiError(404, "not_found", "branch 'b9' does not exist"))));
    const failed = client.open("b9", "t").catch((error: unknown) => error);
    const run = client.run(input(settingsForMode("copilot"))).catch((error: unknown) => error);
    expect(await failed).toBeInstanceOf(PipelineWorkerError);
    expect(((await failed) as Error).message).toBe("branch 'b9' does not exist");
    expect(((await run) as Error).message).toMatch(/no conversation loaded/);
    await client.load("t", sample[1].traj);
    expect((await client.run(input(settingsForMode("copilot"))))?.kept).toHaveLength(sample[1].traj.length);
  });

  it("hands on whole results however they were posted, and parses pasted text", async () => {
    const long = records(sample.flatMap((entry) => entry.traj.filter((message) => message.role !== "system")));
    const client = new PipelineClient(inProcessWorker(async () => long));
    const { conversation } = await client.open("b1", "t");
    const host = new PipelineHost();
    host.load("t", conversation.messages);
    for (const settings of [settingsForMode("copilot"), { ...settingsForMode("copilot"), historyRounds: 4 }, settingsForMode("copilot")]) {
      const [posted, direct] = await Promise.all([client.run(input(settings)), host.run(input(settings))]);
      expect({ ...posted, totalMs: 0, revision: 0 }).toEqual(
        structuredClone({ ...direct, totalMs: 0, revision: 0, steps: posted?.steps, contexts: posted?.contexts }),
      );
    }
    const pasted = await client.parse(JSON.stringify(sample[2].traj));
    expect(pasted.messages).toHaveLength(sample[2].traj.length);
    expect((await client.run(input(settingsForMode("copilot"))))?.kept).toHaveLength(sample[2].traj.length);
    // IM-14: a file is handed over unread and read in the worker.
    const file = await client.parse(new Blob([JSON.stringify(sample[3].traj)]), "task.json");
    expect(file.messages).toHaveLength(sample[3].traj.length);
    expect(file).toEqual(await client.parse(JSON.stringify(sample[3].traj), "task.json"));
  });

  it("passes the API's error through when the prefetched history failed", async () => {
    const getBranchMessages = vi.fn(async () => Promise.reject(new ApiError(0, "network_error", "GET /api/branches/b1/messages could not reach the server")));
    const client = new PipelineClient(inProcessWorker(getBranchMessages));
    client.prefetchHistory("b1");
    await expect(client.open("b1", "t")).rejects.toThrow(/could not reach the server/);
    expect(getBranchMessages).toHaveBeenCalledTimes(1);
  });
});
