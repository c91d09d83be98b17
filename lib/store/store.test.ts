import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { sharedCounter, type EncodingName, type Message, type ToolDefinition } from "@/lib/context";
import type { BranchRecord, BranchTreeNode, ConversationRecord, MessageRecord } from "@/lib/db";
import { FIRST_SCREEN_MESSAGES, toPageResult } from "@/lib/playground/page-result";
import { PipelineHost } from "@/lib/playground/pipeline-host";
import type { RunInput, RunResult } from "@/lib/playground/protocol";
import { emptySnapshot } from "@/lib/request";
import { mergeSettings, moveProcessor, settingsWithModel, toggleProcessor } from "@/lib/settings";
import { runInput } from "./runs";
import { createPlaygroundStore, forkPositionOf, forkPositionOfSelection, type PlaygroundPipeline, type PlaygroundServices } from "./index";

const sample = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "..", "tests", "fixtures", "tau-bench-airline-sample.json"), "utf8")) as {
  traj: Message[];
}[];

const conversation: ConversationRecord = {
  id: "c1",
  title: "task 0",
  source: "tau-bench",
  settings: {},
  tools: null,
  recordKey: null,
  origin: null,
  sessionKey: null,
  parentId: null,
  parentCallId: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};
const branch = (id: string, length: number, parentId: string | null = null): BranchRecord => ({
  id,
  conversationId: "c1",
  name: id,
  parentId,
  forkPosition: parentId ? length : null,
  length,
  createdAt: conversation.createdAt,
});
const records = (messages: Message[], branchId = "main"): MessageRecord[] =>
  messages.map((message, position) => ({ id: `m${position}`, branchId, position, tokens: 1, createdAt: conversation.createdAt, metadata: null, message }));

/** The worker's host, called asynchronously like the Web Worker's client; with `history`, it reads branches itself (`open`). */
function hostPipeline(history?: (branchId: string) => Promise<MessageRecord[]>): PlaygroundPipeline & { runs: RunInput[] } {
  const host = new PipelineHost();
  const runs: RunInput[] = [];
  // Requests are taken in order, as the worker takes them: a run asked for during an open waits for it.
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T> | T): Promise<T> => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    runs,
    load: (title, messages, tools, encoding, snapshot) => inTurn(() => host.load(title, messages, tools, encoding, snapshot)),
    ...(history
      ? {
          open: (branchId: string, title: string, tools?: ToolDefinition[], encoding?: EncodingName) =>
            inTurn(async () => host.loadStored(title, await history(branchId), tools, encoding)),
        }
      : {}),
    run: (input) =>
      inTurn(() => {
        runs.push(input);
        return host.run(input);
      }),
    stepHistories: async (step) => host.stepHistories(step),
    reload: async (handle) => host.reload(handle),
    compare: (input, onProgress) => {
      const controller = new AbortController();
      return { result: host.compare(input, { signal: controller.signal, onProgress }), cancel: () => controller.abort() };
    },
  };
}

/** A host holding `messages`, as the server's holds a branch. */
function withLoaded(messages: Message[]): PipelineHost {
  const host = new PipelineHost();
  host.load("task 0", messages);
  return host;
}

function fakeServices(overrides: Partial<PlaygroundServices> = {}): PlaygroundServices {
  return {
    saveSettings: vi.fn(async () => undefined),
    openBranch: vi.fn(async (id: string) => ({ branch: branch(id, 4, "main"), conversation, records: records(sample[0].traj.slice(0, 4), id), result: null })),
    getBranchMessages: vi.fn(async (id: string) => records(sample[0].traj.slice(0, 4), id)),
    getConversation: vi.fn(async () => ({ conversation, branches: [{ ...branch("main", 32), children: [] }] })),
    getBranchMemory: vi.fn(async (id: string) => emptySnapshot(id)),
    getBranchTree: vi.fn(async (): Promise<BranchTreeNode[]> => [{ ...branch("main", 32), children: [] }]),
    forkBranch: vi.fn(async (_parent: string, position: number) => branch("child", position, "main")),
    ...overrides,
  };
}

async function loadedStore(options: Parameters<typeof createPlaygroundStore>[0] = {}) {
  const pipeline = hostPipeline();
  const store = createPlaygroundStore({ pipeline, ...options });
  await store.getState().setConversation({ conversation, branch: branch("main", 32), records: records(sample[0].traj) });
  return { store, pipeline };
}

describe("createPlaygroundStore: conversation and run", () => {
  it("loads a stored conversation into the pipeline and runs it once", async () => {
    const { store, pipeline } = await loadedStore();
    const state = store.getState();
    expect(state.loadStatus).toBe("ready");
    expect(state.messages).toHaveLength(32);
    expect(state.positions).toEqual(sample[0].traj.map((_, index) => index));
    expect(state.tokens.every((count) => count > 1)).toBe(true);
    expect(pipeline.runs).toHaveLength(1);
    expect(state.result?.steps.map((step) => step.processor)).toContain("round_window");
    expect(state.running).toBe(false);
  });

  it("starts with the page's conversation and the server's first result in its initial state, then takes the pipeline's own run", async () => {
    const server = { ...(await withLoaded(sample[0].traj).run({ settings: createPlaygroundStore().getState().resolved })), origin: "server" as const };
    const store = createPlaygroundStore({ conversation: { conversation, branch: branch("main", 32), records: records(sample[0].traj), result: server } });
    // React renders the server's HTML and hydrates from the initial state (zustand's server snapshot), not from later `setState`s.
    expect(store.getInitialState().conversation?.id).toBe("c1");
    expect(store.getInitialState().messages).toHaveLength(32);
    expect(store.getInitialState().result).toBe(server);
    expect(store.getInitialState().loadStatus).toBe("loading");

    const pipeline = hostPipeline();
    store.getState().attachPipeline(pipeline);
    await vi.waitFor(() => expect(store.getState().result?.origin).toBeUndefined(), { timeout: 8_000 });
    expect(pipeline.runs).toHaveLength(1);
    expect(store.getState().result?.kept).toEqual(server.kept);
    expect(store.getState().result?.history).toEqual(server.history);
  });

  it("re-runs on every settings change and ends on the latest settings", async () => {
    const { store, pipeline } = await loadedStore();
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { historyRounds: 3 }));
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { historyRounds: 1 }));
    await vi.waitFor(() => expect(store.getState().running).toBe(false), { timeout: 8_000 });
    expect(pipeline.runs.at(-1)?.settings.policy.historyRounds).toBe(1);
    const window = store.getState().result?.steps.find((step) => step.processor === "round_window");
    expect(window?.messagesAfter).toBeLessThan(window?.messagesBefore ?? 0);
  });

  it("drops a result that arrives for a conversation replaced meanwhile", async () => {
    const waiting: ((result: RunResult | undefined) => void)[] = [];
    const host = hostPipeline();
    const slow: PlaygroundPipeline = { ...host, run: () => new Promise((resolve) => waiting.push(resolve)) };
    const store = createPlaygroundStore({ pipeline: slow });
    void store.getState().setConversation({ conversation, branch: branch("main", 32), records: records(sample[0].traj) });
    await vi.waitFor(() => expect(waiting).toHaveLength(1), { timeout: 8_000 });
    const second = store
      .getState()
      .setConversation({ conversation: { ...conversation, id: "c2" }, branch: branch("other", 6), records: records(sample[5].traj) });
    waiting[0]({ revision: 99 } as RunResult);
    await vi.waitFor(() => expect(waiting).toHaveLength(2), { timeout: 8_000 });
    waiting[1](await host.run(runInput(store.getState())));
    await second;
    expect(store.getState().result?.revision).not.toBe(99);
    expect(store.getState().result?.kept).toHaveLength(6);
    expect(store.getState().running).toBe(false);
  });

  it("ignores a pipeline detached before its load finished (strict mode mounts twice)", async () => {
    const store = createPlaygroundStore();
    void store.getState().setConversation({ conversation, branch: branch("main", 32), records: records(sample[0].traj) });
    const dead: PlaygroundPipeline = { ...hostPipeline(), load: () => Promise.reject(new Error("the pipeline worker was stopped")) };
    const detach = store.getState().attachPipeline(dead);
    detach();
    store.getState().attachPipeline(hostPipeline());
    await vi.waitFor(() => expect(store.getState().result).not.toBeNull(), { timeout: 8_000 });
    expect(store.getState().loadStatus).toBe("ready");
    expect(store.getState().loadError).toBeNull();
  });

  it("selects a trace step, fetches the histories it received and returned, and clamps step moves", async () => {
    const { store } = await loadedStore();
    const steps = store.getState().result?.steps.length ?? 0;
    store.getState().selectStep(1);
    await vi.waitFor(() => expect(store.getState().stepHistories?.step).toBe(1), { timeout: 8_000 });
    expect(store.getState().stepHistories?.before).toHaveLength(store.getState().result?.steps[1].messagesBefore ?? -1);
    store.getState().moveStep(+99);
    expect(store.getState().selectedStep).toBe(steps - 1);
    store.getState().selectStep(null);
    store.getState().moveStep(-1);
    expect(store.getState().selectedStep).toBe(steps - 1);
  });

  it("flips before/after and keeps the selection on the same message", async () => {
    const { store } = await loadedStore({ view: "before" });
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { historyRounds: 2 }));
    await vi.waitFor(() => expect(store.getState().running).toBe(false), { timeout: 8_000 });
    const { result } = store.getState();
    const last = (result?.kept.length ?? 0) - 1;
    store.getState().selectMessage(last);
    store.getState().toggleView();
    expect(store.getState().view).toBe("after");
    expect(store.getState().selectedMessage).toBe(result?.kept[last]);
    store.getState().toggleView();
    expect(store.getState().selectedMessage).toBe(last);
  });

  it("reloads offloaded content through the pipeline", async () => {
    const { store } = await loadedStore();
    // The offloader acts past the mode's offload threshold (navigator: 20 messages).
    store.getState().applyMode("navigator");
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { maxMessageSize: 400 }));
    await vi.waitFor(() => expect(store.getState().result?.offloaded.length).toBeGreaterThan(0), { timeout: 8_000 });
    const entry = store.getState().result!.offloaded[0];
    expect(await store.getState().reloadHandle(entry.handle)).toBe(sample[0].traj[entry.origin].content);
  });
});

describe("createPlaygroundStore: settings", () => {
  it("[ST-4] choosing a model gives the window, reserve and encoding back to it, and every count follows", async () => {
    const { store, pipeline } = await loadedStore();
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { contextWindow: 50_000, encoding: "o200k_base" }));
    store.getState().replaceSettings(settingsWithModel(store.getState().settings, "gpt-4"));
    await vi.waitFor(() => expect(store.getState().running).toBe(false), { timeout: 8_000 });
    expect(store.getState().settings).toMatchObject({ model: "gpt-4", contextWindow: null, maxOutputTokens: null, encoding: null });
    expect(store.getState().resolved.policy).toMatchObject({ contextWindow: 8_192, encoding: "cl100k_base" });
    expect(pipeline.runs.at(-1)?.settings.policy.encoding).toBe("cl100k_base");
    expect(store.getState().result?.request.verdict.contextWindow).toBe(8_192);
    expect(store.getState().result?.tokens).toEqual(sharedCounter("cl100k_base").countEach(store.getState().result?.history ?? []));
  });

  it("[CT1] recounts every loaded message with the run after a model change, in the same update as its result", async () => {
    const { store } = await loadedStore();
    const before = store.getState().tokens;
    expect(before).toEqual(sharedCounter(store.getState().resolved.policy.encoding).countEach(store.getState().messages));
    const updates: { tokens: boolean; result: boolean }[] = [];
    const stop = store.subscribe((state, previous) => {
      if (state.tokens !== previous.tokens || state.result !== previous.result)
        updates.push({ tokens: state.tokens !== previous.tokens, result: state.result !== previous.result });
    });
    const other = store.getState().resolved.policy.encoding === "o200k_base" ? "gpt-4" : "gpt-4o";
    store.getState().replaceSettings(settingsWithModel(store.getState().settings, other));
    await vi.waitFor(() => expect(store.getState().running).toBe(false), { timeout: 8_000 });
    stop();
    const encoding = store.getState().resolved.policy.encoding;
    expect(store.getState().tokens).toEqual(sharedCounter(encoding).countEach(store.getState().messages));
    expect(store.getState().tokens).not.toEqual(before);
    expect(updates).toEqual([{ tokens: true, result: true }]);
  });

  it("[E-RB1] a typed next turn goes into every build, and clearing it takes it out", async () => {
    const { store, pipeline } = await loadedStore();
    store.getState().setNextTurn("what about my bags?");
    await vi.waitFor(() => expect(store.getState().result?.history.at(-1)?.content).toBe("what about my bags?"), { timeout: 8_000 });
    expect(pipeline.runs.at(-1)?.userTurn).toBe("what about my bags?");
    store.getState().setNextTurn("");
    await vi.waitFor(() => expect(store.getState().result?.history.at(-1)?.content).not.toBe("what about my bags?"), { timeout: 8_000 });
  });

  it("applies a mode preset without losing the tuned sizes and budget", async () => {
    const { store } = await loadedStore();
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { tokenBudget: 1234, maxMessageSize: 777 }));
    store.getState().applyMode("navigator");
    expect(store.getState().settings).toMatchObject({
      mode: "navigator",
      historyRounds: 10,
      summaryThreshold: 5,
      offloadThreshold: 20,
      tokenBudget: 1234,
      maxMessageSize: 777,
    });
  });

  it("toggles and reorders processors and the next run follows the order", async () => {
    const { store } = await loadedStore();
    const { settings } = store.getState();
    store.getState().replaceSettings({ ...settings, processors: moveProcessor(toggleProcessor(settings.processors, "summarize"), "token_budget", 0) });
    await vi.waitFor(() => expect(store.getState().running).toBe(false), { timeout: 8_000 });
    expect(store.getState().settings.processors.map((entry) => entry.kind)[0]).toBe("token_budget");
    expect(store.getState().result?.steps.map((step) => step.processor)).toEqual(["token_budget", "message_offloader", "dialogue_compressor", "round_window"]);
  });

  it("saves the settings to the conversation once they stop changing", async () => {
    const services = fakeServices();
    const { store } = await loadedStore({ services, saveDelayMs: 20 });
    for (const rounds of [5, 4, 3]) store.getState().replaceSettings(mergeSettings(store.getState().settings, { historyRounds: rounds }));
    expect(store.getState().saveStatus).toBe("pending");
    await vi.waitFor(() => expect(store.getState().saveStatus).toBe("saved"), { timeout: 8_000 });
    expect(services.saveSettings).toHaveBeenCalledTimes(1);
    expect(services.saveSettings).toHaveBeenCalledWith("c1", expect.objectContaining({ historyRounds: 3 }));
  });

  it("reports a failed save and keeps the settings", async () => {
    const services = fakeServices({ saveSettings: async () => Promise.reject(new Error("PATCH /api/conversations/c1 could not reach the server")) });
    const { store } = await loadedStore({ services, saveDelayMs: 1 });
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { tokenBudget: 500 }));
    await vi.waitFor(() => expect(store.getState().saveStatus).toBe("error"), { timeout: 8_000 });
    expect(store.getState().saveError).toMatch(/could not reach/);
    expect(store.getState().settings.tokenBudget).toBe(500);
  });

  it("opens a conversation with the settings it stored", async () => {
    const store = createPlaygroundStore({ pipeline: hostPipeline() });
    await store.getState().setConversation({
      conversation: { ...conversation, settings: { mode: "pilot", tokenBudget: 2000, historyRounds: "x" } },
      branch: branch("main", 6),
      records: records(sample[5].traj),
    });
    expect(store.getState().settings).toMatchObject({ mode: "pilot", tokenBudget: 2000, historyRounds: 100 });
  });
});

describe("createPlaygroundStore: ui and branches", () => {
  it("moves the selection within the shown list", async () => {
    const { store } = await loadedStore();
    store.getState().moveSelection(+1);
    expect(store.getState().selectedMessage).toBe(0);
    store.getState().moveSelection(-5);
    expect(store.getState().selectedMessage).toBe(0);
    store.getState().selectMessage(1_000);
    expect(store.getState().selectedMessage).toBe(31);
    store.getState().toggleTheme();
    expect(store.getState().theme).toBe("dark");
  });

  it("forks after the selected message, refreshes the tree and switches to the child", async () => {
    const services = fakeServices();
    const { store } = await loadedStore({ services });
    store.getState().selectMessage(3);
    expect(forkPositionOfSelection(store.getState())).toBe(4);
    const child = await store.getState().forkAtSelection("retry");
    expect(services.forkBranch).toHaveBeenCalledWith("main", 4, "retry");
    expect(child?.id).toBe("child");
    expect(services.getBranchTree).toHaveBeenCalledWith("c1");
    expect(store.getState().branch?.id).toBe("child");
    expect(store.getState().messages).toHaveLength(4);
    expect(store.getState().settings).toBe(store.getState().settings);
  });

  it("forks after a processed-history message at the stored position of the message it stands for", async () => {
    const { store } = await loadedStore({ services: fakeServices() });
    const { result } = store.getState();
    const origin = result!.kept.findIndex((at) => at > 0);
    const state = { ...store.getState(), view: "after" as const };
    expect(forkPositionOf(state, result!.kept[origin])).toBe(origin + 1);
    // A summary the pipeline wrote stands for messages before the next kept one.
    const written = result!.history.findIndex((_, at) => !result!.kept.includes(at));
    if (written >= 0) expect(forkPositionOf(state, written)).toBe(result!.kept.findIndex((at) => at > written));
  });

  it("asks for a selection before forking at it", async () => {
    const services = fakeServices();
    const { store } = await loadedStore({ services });
    expect(await store.getState().forkAtSelection()).toBeNull();
    expect(store.getState().forkError).toMatch(/select a message/);
    expect(services.forkBranch).not.toHaveBeenCalled();
  });

  it("switches to a long branch with its first screen only; the pipeline reads the rest itself", async () => {
    const long = [...sample[0].traj, ...sample[1].traj];
    const opened: string[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const pipeline = hostPipeline(async (branchId) => {
      opened.push(branchId);
      if (branchId === "child") await released;
      return records(long, branchId);
    });
    const services = fakeServices({
      openBranch: vi.fn(async (id: string) => ({
        branch: branch(id, long.length, "main"),
        conversation,
        records: records(long, id).slice(0, FIRST_SCREEN_MESSAGES),
        result: null,
      })),
    });
    const store = createPlaygroundStore({ pipeline, services });
    await store.getState().setConversation({ conversation, branch: branch("main", 32), records: records(sample[0].traj) });

    const switching = store.getState().switchBranch("child");
    await vi.waitFor(() => expect(store.getState().branch?.id).toBe("child"));
    expect(store.getState().partial).toBe(true);
    expect(store.getState().messages).toHaveLength(FIRST_SCREEN_MESSAGES);
    release();
    await switching;
    expect(services.openBranch).toHaveBeenCalledWith("child");
    expect(services.getBranchMessages).not.toHaveBeenCalled();
    expect(opened).toEqual(["child"]);
    expect(store.getState().partial).toBe(false);
    expect(store.getState().messages).toHaveLength(long.length);
    expect(store.getState().result?.steps[0].messagesBefore).toBe(long.length);
  });

  it("shows the server's result for the branch switched to until the pipeline's run, unless tuned settings or a typed turn carry over", async () => {
    const childMessages = sample[2].traj;
    const built = await withLoaded(childMessages).run({ settings: createPlaygroundStore().getState().resolved });
    const page = toPageResult({ ...built, origin: "server" }, FIRST_SCREEN_MESSAGES);
    const opening = async (id: string) => ({
      branch: branch(id, childMessages.length, "main"),
      conversation,
      records: records(childMessages, id),
      result: page,
    });
    const services = fakeServices({ openBranch: vi.fn(opening) });
    const { store } = await loadedStore({ services });
    const shown: (string | undefined)[] = [];
    store.subscribe((state, previous) => {
      if (state.result !== previous.result && state.result) shown.push(state.result.origin ?? "worker");
    });

    await store.getState().switchBranch("child");
    expect(shown).toEqual(["server", "worker"]);
    expect(store.getState().result?.kept).toEqual(built.kept);

    // Built with the stored settings and no typed turn: not what this workspace's next run returns.
    shown.length = 0;
    store.getState().setNextTurn("what about my bags?");
    await store.getState().switchBranch("main");
    store.getState().setNextTurn("");
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { historyRounds: 2 }));
    await store.getState().switchBranch("child");
    await vi.waitFor(() => expect(store.getState().running).toBe(false));
    expect(shown).not.toContain("server");
  });

  it("keeps the tuned settings across a branch switch", async () => {
    const services = fakeServices();
    const { store } = await loadedStore({ services });
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { historyRounds: 2 }));
    await store.getState().switchBranch("child");
    expect(store.getState().settings.historyRounds).toBe(2);
    expect(store.getState().branch?.id).toBe("child");
  });
});

describe("createPlaygroundStore: live updates", () => {
  it("takes messages recorded on the current branch and runs again; ignores other branches and repeats", async () => {
    const { store, pipeline } = await loadedStore({ services: fakeServices() });
    const runs = pipeline.runs.length;
    const turn: MessageRecord[] = records([{ role: "user", content: "one more thing" }]).map((record) => ({ ...record, id: "new", position: 32 }));
    await store.getState().appendRecords("other", 33, turn);
    expect(store.getState().messages).toHaveLength(32);
    store.getState().selectMessage(3);
    await store.getState().appendRecords("main", 33, turn);
    expect(store.getState().messages).toHaveLength(33);
    expect(store.getState().branch?.length).toBe(33);
    expect(store.getState().selectedMessage).toBe(3);
    expect(pipeline.runs.length).toBeGreaterThan(runs);
    await store.getState().appendRecords("main", 33, turn);
    expect(store.getState().messages).toHaveLength(33);
  });
});

describe("createPlaygroundStore: live updates without gaps", () => {
  const turns = (from: number, count: number) =>
    records(Array.from({ length: count }, (_, index) => ({ role: "user" as const, content: `turn ${from + index}` }))).map((record, index) => ({
      ...record,
      id: `live${from + index}`,
      position: from + index,
    }));

  it("[LV-LC3] reads the turns no event brought before showing a later append, so every turn keeps its number", async () => {
    const services = fakeServices({ getBranchMessages: vi.fn(async (_id: string, range?: { from?: number; to?: number }) => turns(range?.from ?? 0, 2)) });
    const { store } = await loadedStore({ services });
    await store.getState().appendRecords("main", 36, turns(34, 2));
    expect(services.getBranchMessages).toHaveBeenCalledWith("main", { from: 32, to: 34 });
    expect(store.getState().records.map((record) => record.position)).toEqual(Array.from({ length: 36 }, (_, index) => index));
    expect(
      store
        .getState()
        .messages.slice(32)
        .map((message) => message.content),
    ).toEqual(["turn 32", "turn 33", "turn 34", "turn 35"]);
    expect(store.getState().branch?.length).toBe(36);
  });

  it("[LV-LC2] applies appends one after another: a repeat of a shown turn changes nothing, a continuation reads nothing", async () => {
    const services = fakeServices();
    const { store } = await loadedStore({ services });
    await Promise.all([store.getState().appendRecords("main", 33, turns(32, 1)), store.getState().appendRecords("main", 34, turns(32, 2))]);
    await store.getState().appendRecords("main", 33, turns(32, 1));
    expect(
      store
        .getState()
        .records.map((record) => record.position)
        .slice(30),
    ).toEqual([30, 31, 32, 33]);
    expect(services.getBranchMessages).not.toHaveBeenCalled();
  });

  it("[LV-LC1] [LV-LC4] once the stream is open, reads past the cursor what was recorded before it, the conversation and the calls", async () => {
    const services = fakeServices({ getBranchMessages: vi.fn(async () => turns(32, 3)) });
    const { store } = await loadedStore({ services });
    const calls = store.getState().callsRevision;
    await store.getState().catchUp();
    expect(services.getBranchMessages).toHaveBeenCalledWith("main", { from: 32 });
    expect(services.getConversation).toHaveBeenCalledWith("c1");
    expect(store.getState().messages).toHaveLength(35);
    expect(store.getState().callsRevision).toBe(calls + 1);
  });

  it("[LV-LC4] a turn that came before the first screen's history was read is read once it is here", async () => {
    const all = records(sample[0].traj);
    const services = fakeServices({ getBranchMessages: vi.fn(async () => turns(all.length, 1)) });
    const store = createPlaygroundStore({
      conversation: { conversation, branch: branch("main", all.length), records: all.slice(0, 5), partial: true },
      services,
    });
    await store.getState().catchUp();
    await store.getState().appendRecords("main", all.length + 1, turns(all.length, 1));
    expect(services.getBranchMessages).not.toHaveBeenCalled();
    store.getState().attachPipeline(hostPipeline(async () => all));
    await vi.waitFor(() => expect(store.getState().records).toHaveLength(all.length + 1), { timeout: 8_000 });
    expect(services.getBranchMessages).toHaveBeenCalledWith("main", { from: all.length });
    expect(store.getState().messages.at(-1)?.content).toBe(`turn ${all.length}`);
  });

  it("[LV-LC4] while following, a branch switch reads what was recorded on the branch since its opening", async () => {
    const services = fakeServices({
      getBranchMessages: vi.fn(async (id: string, range?: { from?: number }) => (range ? turns(4, 1).map((record) => ({ ...record, branchId: id })) : [])),
    });
    const { store } = await loadedStore({ services });
    await store.getState().catchUp();
    await store.getState().switchBranch("child");
    await vi.waitFor(() => expect(store.getState().records).toHaveLength(5));
    expect(services.getBranchMessages).toHaveBeenCalledWith("child", { from: 4 });
    store.getState().stopFollowing();
  });

  it("[LV-LC5] takes the conversation's new tools when a live event says they changed, and reads nothing when they did not", async () => {
    const tools = [{ type: "function" as const, function: { name: "get_reservation_details", parameters: { type: "object", properties: {} } } }];
    const services = fakeServices({ getConversation: vi.fn(async () => ({ conversation: { ...conversation, tools }, branches: [] })) });
    const { store } = await loadedStore({ services });
    await store.getState().noticeConversation(conversation);
    expect(services.getConversation).not.toHaveBeenCalled();
    await store.getState().noticeConversation({ ...conversation, tools });
    expect(store.getState().tools).toEqual(tools);
    expect(store.getState().conversation?.tools).toEqual(tools);
    await vi.waitFor(() => expect(store.getState().result?.request.tools).toEqual(tools));
  });
});

describe("createPlaygroundStore: the page's first screen, then the whole branch", () => {
  const firstScreen = (all: MessageRecord[]) => ({ conversation, branch: branch("main", all.length), records: all.slice(0, 5), partial: true });

  it("shows the first messages with the branch's length, then has the pipeline read the whole branch, counted as the settings count, and runs once", async () => {
    const all = records(sample[0].traj);
    const read: string[] = [];
    const pipeline = hostPipeline(async (branchId) => {
      read.push(branchId);
      return all;
    });
    const store = createPlaygroundStore({ conversation: firstScreen(all) });
    expect(store.getState()).toMatchObject({ partial: true, records: [], loadStatus: "loading" });
    expect(store.getState().messages).toHaveLength(5);
    expect(store.getState().positions).toEqual([0, 1, 2, 3, 4]);
    store.getState().attachPipeline(pipeline);
    await vi.waitFor(() => expect(store.getState().result).not.toBeNull(), { timeout: 8_000 });
    const state = store.getState();
    expect(read).toEqual(["main"]);
    expect(state).toMatchObject({ partial: false, loadStatus: "ready", records: all });
    expect(state.messages).toHaveLength(all.length);
    expect(state.positions).toEqual(all.map((record) => record.position));
    // gpt-4o, the default model, counts with o200k_base: as the stored counts and the run do.
    expect(state.tokens).toEqual(sharedCounter("o200k_base").countEach(state.messages));
    expect(state.result?.kept).toHaveLength(all.length);
    expect(pipeline.runs).toHaveLength(1);
  });

  it("reads the rest through the services when the pipeline cannot", async () => {
    const all = records(sample[1].traj);
    const services = fakeServices({ getBranchMessages: vi.fn(async () => all) });
    const store = createPlaygroundStore({ conversation: firstScreen(all), services });
    store.getState().attachPipeline(hostPipeline());
    await vi.waitFor(() => expect(store.getState().result).not.toBeNull(), { timeout: 8_000 });
    expect(services.getBranchMessages).toHaveBeenCalledWith("main");
    expect(store.getState().records).toEqual(all);
    expect(store.getState().messages).toHaveLength(all.length);
  });

  it("runs again on settings changed while the branch was loading, and takes live turns that came meanwhile", async () => {
    const all = records(sample[0].traj);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pipeline = hostPipeline(async () => {
      await held;
      return all;
    });
    const store = createPlaygroundStore({ conversation: firstScreen(all), services: fakeServices() });
    store.getState().attachPipeline(pipeline);
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { historyRounds: 2 }));
    const turn = records([{ role: "user", content: "one more thing" }]).map((record) => ({ ...record, id: "new", position: all.length }));
    const appended = store.getState().appendRecords("main", all.length + 1, turn);
    release();
    await appended;
    await vi.waitFor(() => expect(store.getState().running).toBe(false), { timeout: 8_000 });
    expect(pipeline.runs.at(-1)?.settings.policy.historyRounds).toBe(2);
    expect(store.getState().records.map((record) => record.position)).toEqual([...all, ...turn].map((record) => record.position));
    expect(store.getState().messages.at(-1)?.content).toBe("one more thing");
    expect(store.getState().result?.kept).toHaveLength(all.length + 1);
  });
});

describe("createPlaygroundStore: undo, redo and trying settings out", () => {
  it("[PO-6] undoes and redoes settings changes, a drag of one slider being one step, and saves what undo brings back", async () => {
    const services = fakeServices();
    const { store, pipeline } = await loadedStore({ services, saveDelayMs: 20 });
    const original = store.getState().settings;
    for (const rounds of [9, 7, 5]) store.getState().replaceSettings(mergeSettings(store.getState().settings, { historyRounds: rounds }));
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { tokenBudget: 4_000 }));
    expect(store.getState().past).toHaveLength(2);
    store.getState().undo();
    expect(store.getState().settings).toMatchObject({ historyRounds: 5, tokenBudget: null });
    store.getState().undo();
    expect(store.getState().settings).toEqual(original);
    store.getState().undo();
    expect(store.getState().settings).toEqual(original);
    store.getState().redo();
    expect(store.getState().settings.historyRounds).toBe(5);
    await vi.waitFor(() => expect(store.getState().saveStatus).toBe("saved"), { timeout: 8_000 });
    expect(services.saveSettings).toHaveBeenLastCalledWith("c1", expect.objectContaining({ historyRounds: 5, tokenBudget: null }));
    await vi.waitFor(() => expect(pipeline.runs.at(-1)?.settings.policy.historyRounds).toBe(5), { timeout: 8_000 });
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { offloadThreshold: 2 }));
    expect(store.getState().future).toEqual([]);
    // The settings panel hands whole settings; a drag of one slider is still one step.
    const steps = store.getState().past.length;
    for (const size of [900, 800, 700]) store.getState().replaceSettings({ ...store.getState().settings, maxMessageSize: size });
    expect(store.getState().past).toHaveLength(steps + 1);
  });

  it("[PO-6] a try runs the pipeline without saving; saving writes the tried settings, discarding brings the saved ones back", async () => {
    const services = fakeServices();
    const { store, pipeline } = await loadedStore({ services, saveDelayMs: 1 });
    const saved = store.getState().settings;
    store.getState().startTry();
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { tokenBudget: 3_000 }));
    await vi.waitFor(() => expect(pipeline.runs.at(-1)?.settings.policy.tokenBudget).toBe(3_000), { timeout: 8_000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(services.saveSettings).not.toHaveBeenCalled();
    store.getState().discardTry();
    expect(store.getState()).toMatchObject({ trying: false, settings: saved });
    await vi.waitFor(() => expect(pipeline.runs.at(-1)?.settings.policy.tokenBudget).toBe(null), { timeout: 8_000 });
    expect(services.saveSettings).not.toHaveBeenCalled();

    store.getState().startTry();
    store.getState().replaceSettings(mergeSettings(store.getState().settings, { historyRounds: 2 }));
    store.getState().saveTry();
    await vi.waitFor(() => expect(store.getState().saveStatus).toBe("saved"), { timeout: 8_000 });
    expect(services.saveSettings).toHaveBeenCalledTimes(1);
    expect(services.saveSettings).toHaveBeenCalledWith("c1", expect.objectContaining({ historyRounds: 2 }));
    expect(store.getState().savedSettings.historyRounds).toBe(2);
  });
});

describe("createPlaygroundStore: comparisons", () => {
  it("[E-RP9] compares the loaded branch with the catalogue's prices of the first policy's model, and another branch drops the result", async () => {
    const services = fakeServices();
    const store = createPlaygroundStore({ pipeline: hostPipeline(), services });
    await store.getState().setConversation({ conversation, branch: branch("main", 32), records: records(sample[0].traj) });
    await store.getState().startCompare([{ id: "current", label: "Current", policy: store.getState().resolved.policy }]);
    const { comparison } = store.getState();
    expect(comparison?.runs.map((run) => run.id)).toEqual(["raw", "current"]);
    expect(comparison?.runs[0].replay.totals.cost?.total).toBeGreaterThan(0);
    expect(store.getState()).toMatchObject({ comparing: false, compareError: null, compareProgress: { finished: 1, runs: 2 } });

    await store.getState().switchBranch("child");
    expect(store.getState().comparison).toBeNull();
  });

  it("[CC-13] prices the runs with a cache lifetime the model offers, and ignores one it does not", async () => {
    const pipeline = hostPipeline();
    const seen: (string | undefined)[] = [];
    const compare = pipeline.compare!;
    pipeline.compare = (input, onProgress) => {
      seen.push(input.cacheTtl);
      return compare(input, onProgress);
    };
    const store = createPlaygroundStore({ pipeline });
    await store.getState().setConversation({ conversation, branch: branch("main", 32), records: records(sample[0].traj) });
    const sonnet = { ...store.getState().resolved.policy, model: "claude-sonnet-4-5" };
    await store.getState().startCompare([{ id: "current", label: "Current", policy: sonnet }], "1h");
    await store.getState().startCompare([{ id: "current", label: "Current", policy: sonnet }], "24h");
    expect(seen).toEqual(["1h", undefined]);
  });

  it("[E-RP9] a cancelled comparison is not an error and keeps the last result", async () => {
    const store = createPlaygroundStore({ pipeline: hostPipeline() });
    await store.getState().setConversation({ conversation, branch: branch("main", 32), records: records(sample[0].traj) });
    const started = store.getState().startCompare([{ id: "current", label: "Current", policy: store.getState().resolved.policy }]);
    store.getState().cancelCompare();
    await started;
    expect(store.getState()).toMatchObject({ comparing: false, compareError: null, comparison: null });
  });
});
