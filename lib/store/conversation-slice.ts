import type { StateCreator } from "zustand/vanilla";
import { sameJson, sameMessage, type Message } from "@/lib/context/light";
import type { ConversationRecord, MessageRecord } from "@/lib/db";
import { planAppend, takeContiguous } from "@/lib/live/cursor";
import { fromPageResult } from "@/lib/playground/page-result";
import type { LoadedConversation } from "@/lib/playground/protocol";
// The module, not the entry: the page must not load the parsers (and zod) for the marker scan.
import { collectOffloadMarkers } from "@/lib/import/markers";
import { normalizeSettings, resolveSettings, resolveStoredSettings } from "@/lib/settings";
import { acceptRun, runInput } from "./runs";
import { errorText, type PlaygroundRuntime } from "./runtime";
import type { ConversationInput, ConversationSlice, PlaygroundState } from "./types";

/**
 * Stored position of each loaded message. The worker repairs broken tool pairs
 * (it may drop an orphan result), so loaded messages are matched to the stored
 * ones in order rather than by index.
 */
export function matchPositions(loaded: readonly Message[], stored: readonly { position: number; message: Message }[]): number[] {
  if (loaded.length === stored.length) return stored.map((record) => record.position);
  const positions: number[] = [];
  let cursor = 0;
  for (const message of loaded) {
    let at = cursor;
    while (at < stored.length && !sameMessage(stored[at].message, message)) at += 1;
    if (at < stored.length) {
      positions.push(stored[at].position);
      cursor = at + 1;
    } else {
      positions.push(positions.length > 0 ? positions[positions.length - 1] : 0);
    }
  }
  return positions;
}

/**
 * Loads the current conversation into the pipeline, then runs it. Safe to call
 * again; stale loads are dropped. A partial conversation (the page's first
 * screen) is completed on the way: the pipeline fetches the branch's history
 * itself when it can (the worker parses it off the main thread), else the
 * services fetch it here. The first run is asked for right behind the load,
 * so the worker starts it as soon as the load is done, without waiting for
 * this thread to take the loaded conversation first.
 */
export function loadIntoPipeline(runtime: PlaygroundRuntime, set: (partial: Partial<PlaygroundState>) => void, get: () => PlaygroundState): Promise<void> {
  const loading = load(runtime, set, get);
  runtime.loading = loading;
  void loading.finally(() => {
    if (runtime.loading === loading) runtime.loading = null;
  });
  return loading;
}

async function load(runtime: PlaygroundRuntime, set: (partial: Partial<PlaygroundState>) => void, get: () => PlaygroundState): Promise<void> {
  const { pipeline, services } = runtime;
  const { conversation, branch, records, partial } = get();
  const input = runInput(get());
  if (!pipeline || !conversation) return;
  const token = runtime.loadToken;
  const { title } = conversation;
  const tools = conversation.tools ?? undefined;
  // The loaded messages are counted as the settings count, like the stored counts and the run's.
  const encoding = input.settings.policy.encoding;
  set({ loadStatus: "loading", loadError: null });
  try {
    let stored = records;
    let loading: Promise<LoadedConversation>;
    if (partial && branch && pipeline.open) {
      loading = pipeline.open(branch.id, title, tools, encoding).then((opened) => {
        stored = opened.records;
        return opened.conversation;
      });
    } else {
      if (partial && (!branch || !services)) throw new Error("this branch's history cannot be fetched here");
      // A stored branch's persisted memory (its summary chain) goes into every request built from it.
      const [fetched, snapshot] = await Promise.all([
        partial && branch && services ? services.getBranchMessages(branch.id) : stored,
        branch && services ? services.getBranchMemory(branch.id) : undefined,
      ]);
      if (token !== runtime.loadToken) return;
      stored = fetched;
      loading = pipeline.load(
        title,
        stored.map((record) => record.message),
        tools,
        encoding,
        snapshot,
      );
    }
    const firstRun = pipeline.run(input);
    // Dropped with the load when that fails.
    firstRun.catch(() => undefined);
    const loaded = await loading;
    if (token !== runtime.loadToken) return;
    runtime.pipelineToken = token;
    set({
      records: stored,
      partial: false,
      messages: loaded.messages,
      tokens: loaded.tokens,
      positions: matchPositions(loaded.messages, stored),
      repairs: loaded.repairs,
      offloadMarkers: collectOffloadMarkers(loaded.messages),
      loadStatus: "ready",
    });
    // LV-LC4: live turns that came while the history was read were left to this moment.
    if (partial && runtime.syncPending) {
      runtime.syncPending = false;
      void get()
        .syncBranch()
        .catch((error: unknown) => console.error("live: could not read the turns recorded while the branch loaded", error));
    }
    await acceptRun(runtime, set, get, token, firstRun);
    // Settings or the typed turn changed while loading: run again on the newest.
    if (token === runtime.loadToken && (get().resolved !== input.settings || runInput(get()).userTurn !== input.userTurn)) await get().requestRun();
  } catch (error) {
    if (token === runtime.loadToken) set({ loadStatus: "error", loadError: errorText(error) });
  }
}

/**
 * Whether the server's first result, built with the conversation's stored
 * settings and no typed turn, is what the pipeline's first run will return
 * here: not when the settings being tuned, or a typed next turn, carry over
 * from the branch shown before.
 */
export function serverResultFits(state: Pick<PlaygroundState, "resolved" | "nextTurn" | "catalogue">, conversation: ConversationRecord): boolean {
  const stored = resolveStoredSettings(conversation.settings, state.catalogue);
  return sameJson(runInput(state), { settings: stored });
}

/** The state a stored conversation on a branch starts with, before the worker has repaired and counted it. */
export function conversationState(
  { conversation, branch, records, tree, partial = false, result }: ConversationInput,
  sameConversation: boolean,
  willLoad: boolean,
  catalogue: PlaygroundState["catalogue"],
): Partial<PlaygroundState> {
  const settings = normalizeSettings(conversation.settings).settings;
  const messages = records.map((record) => record.message);
  return {
    conversation,
    branch,
    // A first screen is shown, not handed on as the branch's history (the recorder reads that).
    records: partial ? [] : records,
    partial,
    messages,
    tokens: records.map((record) => record.tokens),
    positions: records.map((record) => record.position),
    tools: conversation.tools ?? undefined,
    repairs: [],
    offloadMarkers: collectOffloadMarkers(messages),
    loadStatus: willLoad ? "loading" : "ready",
    loadError: null,
    result: result ?? null,
    stepHistories: null,
    selectedMessage: null,
    hoveredCall: null,
    ...(tree ? { tree } : {}),
    // Switching branches keeps the settings being tuned; opening another conversation takes its own.
    ...(sameConversation
      ? {}
      : {
          settings,
          savedSettings: settings,
          past: [],
          future: [],
          trying: false,
          resolved: resolveSettings(settings, catalogue),
          nextTurn: "",
          saveStatus: "idle" as const,
          saveError: null,
        }),
  };
}

function sameTools(first: ConversationRecord["tools"], second: ConversationRecord["tools"]): boolean {
  return sameJson(first ?? null, second ?? null);
}

/** Runs live changes one after another, each on the state the one before left (LV-LC3). */
function inTurn<T>(runtime: PlaygroundRuntime, work: () => Promise<T>): Promise<T> {
  const next = runtime.liveQueue.then(work);
  runtime.liveQueue = next.catch(() => undefined);
  return next;
}

export function createConversationSlice(runtime: PlaygroundRuntime): StateCreator<PlaygroundState, [], [], ConversationSlice> {
  return (set, get) => {
    /**
     * Adds messages that continue the shown branch and loads them; the pipeline's
     * load is returned, not waited for, so the next live change need not wait for a run.
     */
    const showRecords = (fresh: MessageRecord[], branchLength: number): { loaded: Promise<void> } | null => {
      const { conversation, branch, records, selectedMessage } = get();
      if (!conversation || !branch || fresh.length === 0) return null;
      const next = [...records, ...fresh];
      const loaded = get()
        .setConversation({ conversation, branch: { ...branch, length: Math.max(branchLength, branch.length, next.length) }, records: next })
        .then(() => {
          // A live turn must not take the reader's place away.
          if (selectedMessage !== null) get().selectMessage(selectedMessage);
          get().bumpDataRevision();
        });
      return { loaded };
    };

    return {
      conversation: null,
      records: [],
      partial: false,
      messages: [],
      tokens: [],
      positions: [],
      tools: undefined,
      repairs: [],
      offloadMarkers: [],
      loadStatus: "empty",
      loadError: null,

      async setConversation(input: ConversationInput) {
        runtime.loadToken += 1;
        if (get().branch?.id !== input.branch.id) {
          // A comparison replays the branch it started on: another branch drops it.
          runtime.cancelCompare?.();
          runtime.compareToken += 1;
          set({ comparison: null, compareProgress: null, comparing: false, compareError: null });
        }
        set(conversationState(input, get().conversation?.id === input.conversation.id, runtime.pipeline !== null, get().catalogue));
        await loadIntoPipeline(runtime, set, get);
      },

      async appendRecords(branchId: string, branchLength: number, appended: MessageRecord[]) {
        const shown = await inTurn(runtime, async () => {
          if (get().partial) {
            // The history is being read: add to it once it is here. Not read yet: read past it once it is (LV-LC4).
            if (runtime.loading) await runtime.loading;
            if (get().partial) {
              runtime.syncPending = true;
              return null;
            }
          }
          if (get().branch?.id !== branchId) return null;
          const cursor = get().records.length;
          const { fresh, missing } = planAppend(cursor, appended);
          // LV-LC3: a gap means events were missed; what they carried is read before the rest is shown.
          const read = missing && runtime.services ? await runtime.services.getBranchMessages(branchId, missing) : [];
          if (get().branch?.id !== branchId || get().partial) return null;
          return showRecords(takeContiguous(get().records.length, [...read, ...fresh]), branchLength);
        });
        await shown?.loaded;
      },

      async syncBranch() {
        const shown = await inTurn(runtime, async () => {
          const { branch, partial } = get();
          if (!branch || !runtime.services) return null;
          if (partial) {
            runtime.syncPending = true;
            return null;
          }
          const read = await runtime.services.getBranchMessages(branch.id, { from: get().records.length });
          if (get().branch?.id !== branch.id || get().partial) return null;
          return showRecords(takeContiguous(get().records.length, read), branch.length);
        });
        await shown?.loaded;
      },

      async syncConversation() {
        const conversationId = get().conversation?.id;
        if (!runtime.services || !conversationId) return;
        const detail = await runtime.services.getConversation(conversationId);
        if (get().conversation?.id !== conversationId) return;
        set({ tree: detail.branches });
        const shown = await inTurn(runtime, async () => {
          if (get().partial && runtime.loading) await runtime.loading;
          const { conversation, branch, records, partial } = get();
          if (!conversation || !branch || conversation.id !== conversationId || sameTools(conversation.tools, detail.conversation.tools)) return null;
          const next = { ...conversation, tools: detail.conversation.tools };
          // Still being read: the load to come takes the tools from here.
          if (partial) {
            set({ conversation: next, tools: next.tools ?? undefined });
            return null;
          }
          return { loaded: get().setConversation({ conversation: next, branch, records }) };
        });
        await shown?.loaded;
      },

      async noticeConversation(recorded: ConversationRecord) {
        const { conversation } = get();
        if (conversation?.id === recorded.id && !sameTools(conversation.tools, recorded.tools)) await get().syncConversation();
      },

      async catchUp() {
        runtime.following = true;
        get().bumpCallsRevision();
        await Promise.all([get().syncConversation(), get().syncBranch()]);
      },

      stopFollowing() {
        runtime.following = false;
        runtime.syncPending = false;
      },

      async reloadBranch() {
        const { conversation, branch, records, partial } = get();
        if (!conversation || !branch) return;
        // Reloading runs the load again: the branch's persisted memory is read anew, then every view builds again.
        await get().setConversation({ conversation, branch, records, partial });
        get().bumpDataRevision();
      },

      async switchBranch(branchId: string) {
        const { services } = runtime;
        const { conversation, branch } = get();
        if (!services || !conversation || branch?.id === branchId) return;
        const token = ++runtime.loadToken;
        set({ loadStatus: "loading", loadError: null });
        try {
          // As a page load opens it: the first screen at once, the worker reads the rest; the server's result until the worker's.
          const opening = await services.openBranch(branchId);
          if (token !== runtime.loadToken) return;
          const { branch: next, records } = opening;
          const result = opening.result && serverResultFits(get(), opening.conversation) ? fromPageResult(opening.result) : undefined;
          await get().setConversation({ conversation, branch: next, records, partial: records.length < next.length, result });
          // LV-LC4: turns recorded on it between the opening's read and now had no branch shown to go to.
          if (runtime.following)
            void get()
              .syncBranch()
              .catch((error: unknown) => console.error("live: could not read the turns recorded while the branch opened", error));
        } catch (error) {
          if (token === runtime.loadToken) set({ loadStatus: "error", loadError: errorText(error) });
        }
      },
    };
  };
}
