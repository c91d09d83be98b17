import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { hostPipeline, sampleBranch, sampleConversation, sampleRecords, sampleTrajectories } from "@/lib/store/test-support";
import { useScreenLayout } from "@/tests/support/screen-layout";
import { createPlaygroundStore, type PlaygroundPipeline, type PlaygroundStore } from "@/lib/store";
import { PlaygroundStoreProvider, usePlaygroundStore, usePlaygroundStoreApi } from "@/lib/store/provider";
import { PipelineHost } from "@/lib/playground/pipeline-host";
import { ConversationPanel } from "./conversation-panel";
import { useShortcuts } from "./use-shortcuts";

const sample = sampleTrajectories;
const conversation = sampleConversation();
const branch = sampleBranch(32);
const records = sampleRecords(sample[0].traj);

useScreenLayout();
afterEach(cleanup);

let captured: PlaygroundStore | undefined;
function Harness() {
  captured = usePlaygroundStoreApi();
  useShortcuts(captured, ["pipeline", "handles"]);
  return <ConversationPanel />;
}

async function mount() {
  render(
    <PlaygroundStoreProvider conversation={{ conversation, branch, records }} createPipeline={hostPipeline}>
      <Harness />
    </PlaygroundStoreProvider>,
  );
  await waitFor(() => expect(captured?.getState().result).not.toBeNull());
  return captured!;
}

describe("usePlaygroundStore", () => {
  it("throws outside its provider", () => {
    function Orphan() {
      usePlaygroundStore((state) => state.view);
      return null;
    }
    expect(() => render(<Orphan />)).toThrow(/inside <PlaygroundStoreProvider>/);
  });

  it("gives each provider its own store", () => {
    expect(createPlaygroundStore()).not.toBe(createPlaygroundStore());
  });
});

describe("ConversationPanel with the store", () => {
  it("shows the loaded conversation with totals, then the processed history after the toggle", async () => {
    await mount();
    expect(screen.getByRole("list", { name: "Loaded conversation" })).toBeTruthy();
    expect(screen.getByLabelText("Conversation totals").textContent).toContain("32 messages");
    fireEvent.click(screen.getByRole("button", { name: /^After/ }));
    expect(screen.getByRole("list", { name: "Processed history" })).toBeTruthy();
  });

  it("reacts to the shortcuts and leaves keys typed into fields alone", async () => {
    const store = await mount();
    act(() => void fireEvent.keyDown(window, { key: "j" }));
    expect(store.getState().selectedMessage).toBe(0);
    act(() => void fireEvent.keyDown(window, { key: "b" }));
    expect(store.getState().view).toBe("after");
    act(() => void fireEvent.keyDown(window, { key: "]" }));
    expect(store.getState().selectedStep).toBe(0);
    act(() => void fireEvent.keyDown(window, { key: "2" }));
    expect(store.getState().tab).toBe("handles");
    act(() => void fireEvent.keyDown(window, { key: "5" }));
    expect(store.getState().tab).toBe("handles");
    act(() => void fireEvent.keyDown(window, { key: "?" }));
    expect(store.getState().dialog).toBe("shortcuts");
    act(() => void fireEvent.keyDown(window, { key: "Escape" }));
    expect(store.getState().dialog).toBeNull();
    act(() => void fireEvent.keyDown(window, { key: "p" }));
    expect(store.getState().settings.mode).toBe("navigator");

    const input = document.createElement("input");
    document.body.append(input);
    act(() => void fireEvent.keyDown(input, { key: "b" }));
    expect(store.getState().view).toBe("after");
    input.remove();
    expect(within(document.body).getByRole("list", { name: "Processed history" })).toBeTruthy();
  });
});

describe("ConversationPanel on the page's first screen", () => {
  it("counts the branch's messages while the rest loads, rounds and tokens once it is here", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const createPipeline = (): PlaygroundPipeline => {
      const host = new PipelineHost();
      let opened: Promise<unknown> = Promise.resolve();
      return {
        load: async (...args) => host.load(...args),
        open: (_branchId, title, tools, encoding) => {
          const loading = held.then(() => host.loadStored(title, records, tools, encoding));
          opened = loading;
          return loading;
        },
        run: async (settings) => {
          await opened;
          return host.run(settings);
        },
        stepHistories: async (step) => host.stepHistories(step),
        reload: async (handle) => host.reload(handle),
      };
    };
    render(
      <PlaygroundStoreProvider conversation={{ conversation, branch, records: records.slice(0, 5), partial: true }} createPipeline={createPipeline}>
        <Harness />
      </PlaygroundStoreProvider>,
    );
    const totals = screen.getByLabelText("Conversation totals");
    expect(totals.textContent).toBe("32 messages… rounds… tokens");
    expect(screen.getByRole("button", { name: /^Before/ }).textContent).toBe("Before · 32");
    expect(screen.getAllByRole("listitem", { name: /^Message \d+,/ })).toHaveLength(5);
    release();
    await waitFor(() => expect(captured?.getState().result).not.toBeNull());
    expect(totals.textContent).toMatch(
      /^32 messages\d+ rounds[\d,]+ tokens → [\d,]+ in messages \+ 3 reply priming( \+ [\d,]+ in tool definitions)? = [\d,]+ sent$/,
    );
  });
});
