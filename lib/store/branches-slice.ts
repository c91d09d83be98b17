import type { StateCreator } from "zustand/vanilla";
import type { BranchRecord } from "@/lib/db";
import { errorText, type PlaygroundRuntime } from "./runtime";
import type { BranchesSlice, PlaygroundState } from "./types";

/** The stored position right after the selected message: fork there and the child inherits it and all before it. */
export function forkPositionOfSelection(state: PlaygroundState): number | null {
  return state.selectedMessage === null ? null : forkPositionOf(state, state.selectedMessage);
}

/** The stored position right after message `shown` of the shown list (before or after the pipeline). */
export function forkPositionOf(state: Pick<PlaygroundState, "view" | "result" | "positions">, shown: number): number | null {
  const { view, result, positions } = state;
  const selectedMessage = shown;
  let index = shown;
  if (view === "after") {
    if (!result) return null;
    index = result.kept.indexOf(selectedMessage);
    // A summary or folded chain has no stored message of its own: fork after the last message it stands for.
    if (index < 0) {
      const next = result.kept.findIndex((at) => at > selectedMessage);
      index = next > 0 ? next - 1 : -1;
    }
  }
  const position = positions[index];
  return position === undefined ? null : position + 1;
}

export function createBranchesSlice(runtime: PlaygroundRuntime): StateCreator<PlaygroundState, [], [], BranchesSlice> {
  return (set, get) => ({
    tree: [],
    branch: null,
    forking: false,
    forkError: null,
    dataRevision: 0,

    bumpDataRevision() {
      set({ dataRevision: get().dataRevision + 1 });
    },

    callsRevision: 0,
    bumpCallsRevision() {
      set({ callsRevision: get().callsRevision + 1 });
    },

    async refreshBranches() {
      const { services } = runtime;
      const conversationId = get().conversation?.id;
      if (!services || !conversationId) return;
      try {
        set({ tree: await services.getBranchTree(conversationId) });
      } catch (error) {
        set({ forkError: errorText(error) });
      }
    },

    async forkAt(position: number, name?: string): Promise<BranchRecord | null> {
      const { services } = runtime;
      const branch = get().branch;
      if (!services || !branch) return null;
      set({ forking: true, forkError: null });
      try {
        const child = await services.forkBranch(branch.id, position, name);
        get().bumpDataRevision();
        await get().refreshBranches();
        await get().switchBranch(child.id);
        return child;
      } catch (error) {
        set({ forkError: errorText(error) });
        return null;
      } finally {
        set({ forking: false });
      }
    },

    async forkAtSelection(name?: string) {
      const position = forkPositionOfSelection(get());
      if (position === null) {
        set({ forkError: "select a message to fork after (j/k or a click)" });
        return null;
      }
      return get().forkAt(position, name);
    },
  });
}
