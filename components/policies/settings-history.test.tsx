import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { diffPolicies, policyOfSettings } from "@/lib/policies";
import { DEFAULT_SETTINGS, mergeSettings, settingsForMode } from "@/lib/settings";
import type { PlaygroundStore } from "@/lib/store";
import { PlaygroundStoreProvider, usePlaygroundStoreApi } from "@/lib/store/provider";
import { useShortcuts } from "@/components/workspace/use-shortcuts";
import { hostPipeline, sampleBranch, sampleConversation, sampleRecords, sampleTrajectories } from "@/lib/store/test-support";
import { useScreenLayout } from "@/tests/support/screen-layout";
import { PolicyDiff } from "./policy-diff";
import { SettingsHistory } from "./settings-history";

const sample = sampleTrajectories;
const conversation = sampleConversation();
const branch = sampleBranch(32);
const records = sampleRecords(sample[0].traj);

useScreenLayout();
afterEach(cleanup);

let captured: PlaygroundStore | undefined;
function Harness() {
  captured = usePlaygroundStoreApi();
  useShortcuts(captured, ["pipeline"]);
  return <SettingsHistory />;
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

describe("SettingsHistory", () => {
  it("[PO-6] undoes with the button and Ctrl+Z, redoes with Ctrl+Shift+Z, and leaves text fields' own undo alone", async () => {
    const store = await mount();
    const undo = screen.getByRole("button", { name: "Undo" });
    expect((undo as HTMLButtonElement).disabled).toBe(true);
    act(() => store.getState().replaceSettings(mergeSettings(store.getState().settings, { historyRounds: 4 })));
    act(() => store.getState().replaceSettings(mergeSettings(store.getState().settings, { tokenBudget: 9_000 })));
    fireEvent.click(screen.getByRole("button", { name: "Undo" }));
    expect(store.getState().settings.tokenBudget).toBe(null);
    act(() => void fireEvent.keyDown(window, { key: "z", ctrlKey: true }));
    expect(store.getState().settings.historyRounds).toBe(DEFAULT_SETTINGS.historyRounds);
    act(() => void fireEvent.keyDown(window, { key: "Z", ctrlKey: true, shiftKey: true }));
    expect(store.getState().settings.historyRounds).toBe(4);
    const field = document.createElement("input");
    document.body.append(field);
    act(() => void fireEvent.keyDown(field, { key: "z", metaKey: true }));
    expect(store.getState().settings.historyRounds).toBe(4);
    field.remove();
    fireEvent.click(screen.getByRole("button", { name: "Redo" }));
    expect(store.getState().settings.tokenBudget).toBe(9_000);
  });

  it("[PO-6] shows the try state with save and discard", async () => {
    const store = await mount();
    fireEvent.click(screen.getByRole("button", { name: "Try without saving" }));
    expect(store.getState().trying).toBe(true);
    expect(screen.getByRole("status").textContent).toMatch(/not saved/);
    act(() => store.getState().replaceSettings(mergeSettings(store.getState().settings, { historyRounds: 2 })));
    fireEvent.click(screen.getByRole("button", { name: "Discard" }));
    expect(store.getState()).toMatchObject({ trying: false, settings: { historyRounds: DEFAULT_SETTINGS.historyRounds } });
    expect(screen.getByRole("button", { name: "Try without saving" })).toBeTruthy();
  });
});

describe("PolicyDiff", () => {
  it("[PO-3] lists each differing setting with both values in words", () => {
    const from = policyOfSettings(DEFAULT_SETTINGS);
    const to = {
      ...policyOfSettings(settingsForMode("navigator")),
      tokenBudget: 20_000,
      processors: from.processors.map((entry) => ({ ...entry, enabled: entry.kind === "round_window" })),
    };
    render(<PolicyDiff fromLabel="Copilot" toLabel="Tight" differences={diffPolicies(from, to)} />);
    const table = screen.getByRole("table", { name: "Policy differences" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => within(row).getByRole("rowheader").textContent)).toEqual([
      "Mode",
      "History rounds",
      "Summary threshold",
      "Offload threshold",
      "Token budget",
      "Processors",
    ]);
    expect(rows[4].textContent).toContain("20,000");
    expect(rows[5].textContent).toContain("Round window");
  });
});
