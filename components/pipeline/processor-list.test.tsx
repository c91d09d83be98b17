import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { PROCESSOR_KINDS, STRATEGY_PROCESSOR_KINDS, defaultPipelineSpec, type ProcessorSpec } from "@/lib/context/light";
import { completeProcessors } from "@/lib/settings";
import { ProcessorList } from "./processor-list";

afterEach(cleanup);

function renderList(initial: ProcessorSpec[] = defaultPipelineSpec()) {
  const onChange = vi.fn<(processors: ProcessorSpec[]) => void>();
  function Harness() {
    const [processors, setProcessors] = useState(initial);
    return (
      <ProcessorList
        processors={processors}
        onChange={(next) => {
          onChange(next);
          setProcessors(next);
        }}
      />
    );
  }
  render(<Harness />);
  const kinds = () => (onChange.mock.lastCall?.[0] ?? []).map((entry) => entry.kind);
  return { onChange, kinds };
}

const rows = () => within(screen.getByRole("list", { name: "Processors in run order" })).getAllByRole("listitem");

describe("ProcessorList", () => {
  it("[ST-5] lists every shipped processor in run order with its event tag, the strategies after the default pipeline", () => {
    renderList();
    expect(rows().map((row) => row.getAttribute("data-kind"))).toEqual(PROCESSOR_KINDS);
    const strategies = rows().slice(-STRATEGY_PROCESSOR_KINDS.length);
    expect(strategies.map((row) => row.getAttribute("data-kind"))).toEqual(STRATEGY_PROCESSOR_KINDS);
    expect(strategies.map((row) => (within(row).getByRole("checkbox") as HTMLInputElement).checked)).toEqual([false, false, false, false]);
    expect(within(rows()[0]).getByText("pre_llm_call")).toBeTruthy();
    expect(within(rows()[5]).getByText("post_tool_call")).toBeTruthy();
  });

  it("toggles a processor through onChange", async () => {
    const { onChange } = renderList();
    await userEvent.click(screen.getByRole("checkbox", { name: "Summarize" }));
    expect(onChange).toHaveBeenLastCalledWith(
      completeProcessors(defaultPipelineSpec()).map((entry) => (entry.kind === "summarize" ? { ...entry, enabled: false } : entry)),
    );
  });

  it("moves a processor up and down with buttons", async () => {
    const { kinds } = renderList();
    await userEvent.click(screen.getByRole("button", { name: "Move Token budget up" }));
    expect(kinds()).toEqual([
      "message_offloader",
      "dialogue_compressor",
      "round_window",
      "token_budget",
      "summarize",
      "tool_result_offloader",
      ...STRATEGY_PROCESSOR_KINDS,
    ]);
    await userEvent.click(screen.getByRole("button", { name: "Move Message offloader down" }));
    expect(kinds().slice(0, 2)).toEqual(["dialogue_compressor", "message_offloader"]);
    expect(screen.getByRole("status").textContent).toBe("Message offloader moved to position 2 of 10");
  });

  it("reorders from the keyboard and keeps focus on the moved processor", async () => {
    const { kinds } = renderList();
    const user = userEvent.setup();
    screen.getByRole("button", { name: "Move Round window up" }).focus();
    await user.keyboard("{Enter}");
    await user.keyboard("{Enter}");
    expect(kinds().slice(0, 3)).toEqual(["round_window", "message_offloader", "dialogue_compressor"]);
    // At the top "up" is disabled, so focus moves to the row's other button.
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Move Round window down" }));
    await user.keyboard(" ");
    expect(kinds().slice(0, 2)).toEqual(["message_offloader", "round_window"]);
  });

  it("disables moves past either end", () => {
    renderList();
    expect(screen.getByRole("button", { name: "Move Message offloader up" })).toHaveProperty("disabled", true);
    expect(screen.getByRole("button", { name: "Move Token window down" })).toHaveProperty("disabled", true);
  });

  it("reorders by drag and drop", () => {
    const { kinds } = renderList();
    fireEvent.dragStart(rows()[0]);
    fireEvent.dragOver(rows()[2]);
    expect(rows()[2].getAttribute("data-drop-target")).toBe("after");
    fireEvent.drop(rows()[2]);
    expect(kinds()).toEqual([
      "dialogue_compressor",
      "round_window",
      "message_offloader",
      "summarize",
      "token_budget",
      "tool_result_offloader",
      ...STRATEGY_PROCESSOR_KINDS,
    ]);
    expect(rows()[2].hasAttribute("data-drop-target")).toBe(false);
  });

  it("resets to the recommended order, keeping enabled flags", async () => {
    const custom: ProcessorSpec[] = [
      { kind: "token_budget", enabled: true },
      { kind: "round_window", enabled: false },
      { kind: "summarize", enabled: true },
    ];
    const { onChange } = renderList(custom);
    expect(screen.getByText("custom order")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Reset to recommended order" }));
    expect(onChange).toHaveBeenLastCalledWith([
      { kind: "message_offloader", enabled: false },
      { kind: "dialogue_compressor", enabled: false },
      { kind: "round_window", enabled: false },
      { kind: "summarize", enabled: true },
      { kind: "token_budget", enabled: true },
      { kind: "tool_result_offloader", enabled: false },
      ...STRATEGY_PROCESSOR_KINDS.map((kind) => ({ kind, enabled: false })),
    ]);
    expect(screen.getByRole("button", { name: "Reset to recommended order" })).toHaveProperty("disabled", true);
  });

  it("shows processors missing from the settings as disabled", () => {
    renderList([{ kind: "round_window", enabled: true }]);
    expect(rows()).toHaveLength(PROCESSOR_KINDS.length);
    expect(screen.getByRole("checkbox", { name: "Round window" })).toHaveProperty("checked", true);
    expect(screen.getByRole("checkbox", { name: "Message offloader" })).toHaveProperty("checked", false);
  });
});
