import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { PROCESSOR_KINDS } from "@/lib/context/light";
import { BUILT_IN_MODELS } from "@/lib/models";
import { DEFAULT_SETTINGS, resolveSettings, settingsForMode, type Settings } from "@/lib/settings";
import { LOG_POSITIONS } from "./range-scale";
import { ThresholdPanel } from "./threshold-panel";

afterEach(cleanup);

/** The panel wired to state, as the workspace does; every onChange is recorded. */
function renderPanel(initial: Settings = DEFAULT_SETTINGS) {
  const onChange = vi.fn<(settings: Settings) => void>();
  function Harness() {
    const [settings, setSettings] = useState(initial);
    return (
      <ThresholdPanel
        settings={settings}
        resolved={resolveSettings(settings)}
        catalogue={[...BUILT_IN_MODELS]}
        onChange={(next) => {
          onChange(next);
          setSettings(next);
        }}
      />
    );
  }
  render(<Harness />);
  return { onChange, last: () => onChange.mock.lastCall?.[0] as Settings };
}

describe("ThresholdPanel > mode presets", () => {
  it("[ST-3] applies the mode's preset when it is picked, keeping the settings a preset does not decide", async () => {
    const { last } = renderPanel({ ...DEFAULT_SETTINGS, tokenBudget: 8_000, model: "gpt-4.1" });
    await userEvent.click(screen.getByRole("radio", { name: "Navigator" }));
    expect(last()).toEqual(settingsForMode("navigator", { ...DEFAULT_SETTINGS, tokenBudget: 8_000, model: "gpt-4.1" }));
    expect(last()).toMatchObject({ mode: "navigator", historyRounds: 10, summaryThreshold: 5, offloadThreshold: 20, tokenBudget: 8_000 });
    expect(screen.getByRole("radio", { name: "Navigator" })).toHaveProperty("checked", true);
  });

  it("says when values were customised away from the preset, and restores them", async () => {
    const { last } = renderPanel({ ...DEFAULT_SETTINGS, historyRounds: 30 });
    const status = screen.getByText(/Customised/).closest("p");
    expect(status?.textContent).toContain("history rounds 30 (preset 20)");
    expect(screen.getByText("customised (preset 20)")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Restore copilot preset" }));
    expect(last().historyRounds).toBe(20);
    expect(screen.queryByText(/Customised/)).toBeNull();
  });

  it("shows the preset's values when nothing was customised", () => {
    renderPanel(settingsForMode("pilot"));
    expect(screen.getByText(/Pilot preset: 100 rounds · summary off · offload off/)).toBeTruthy();
  });
});

describe("ThresholdPanel > numeric settings", () => {
  it("fires onChange with the number while a linear slider moves", () => {
    const { onChange } = renderPanel();
    const slider = screen.getByRole("slider", { name: "History rounds" });
    fireEvent.change(slider, { target: { value: "35" } });
    fireEvent.change(slider, { target: { value: "36" } });
    expect(onChange.mock.calls.map(([settings]) => settings.historyRounds)).toEqual([35, 36]);
    expect(screen.getByRole("spinbutton", { name: "History rounds" })).toHaveProperty("value", "36");
  });

  it("maps a log slider's ends to the range's ends (message sizes 100–200k)", () => {
    const { last } = renderPanel();
    const slider = screen.getByRole("slider", { name: "Message offload size" });
    fireEvent.change(slider, { target: { value: String(LOG_POSITIONS) } });
    expect(last().maxMessageSize).toBe(200_000);
    fireEvent.change(slider, { target: { value: "0" } });
    expect(last().maxMessageSize).toBe(100);
    fireEvent.change(slider, { target: { value: String(LOG_POSITIONS / 2) } });
    expect(slider.getAttribute("aria-valuetext")).toBe(`${last().maxMessageSize.toLocaleString("en")} chars`);
  });

  it("fires onChange with parsed numbers as the number input is typed in, clamped to the range", async () => {
    const { onChange, last } = renderPanel({ ...DEFAULT_SETTINGS, tokenBudget: 8_000 });
    const input = screen.getByRole("spinbutton", { name: "Token budget" });
    await userEvent.clear(input);
    await userEvent.type(input, "12000");
    expect(last().tokenBudget).toBe(12_000);
    expect(onChange.mock.calls.every(([settings]) => typeof settings.tokenBudget === "number")).toBe(true);
    await userEvent.clear(input);
    await userEvent.type(input, "9999999{Enter}");
    expect(last().tokenBudget).toBe(2_000_000);
    expect(input).toHaveProperty("value", "2000000");
  });

  it("waits for Enter or blur before clamping a typed value under the range", async () => {
    const { onChange, last } = renderPanel({ ...DEFAULT_SETTINGS, tokenBudget: 8_000 });
    const input = screen.getByRole("spinbutton", { name: "Token budget" });
    await userEvent.clear(input);
    await userEvent.type(input, "5");
    expect(onChange).not.toHaveBeenCalled();
    await userEvent.type(input, "00");
    expect(last().tokenBudget).toBe(500);
    await userEvent.clear(input);
    await userEvent.type(input, "7{Enter}");
    expect(last().tokenBudget).toBe(100);
    expect(input).toHaveProperty("value", "100");
  });

  it("does not fire for an empty number input, and shows the value again on blur", async () => {
    const { onChange } = renderPanel({ ...DEFAULT_SETTINGS, contextWindow: 128_000 });
    const input = screen.getByRole("spinbutton", { name: "Context window" });
    await userEvent.clear(input);
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.blur(input);
    expect(input).toHaveProperty("value", "128000");
  });

  it("keeps a keyboard step moving on a log slider even where values are small", async () => {
    const { last } = renderPanel({ ...DEFAULT_SETTINGS, summaryThreshold: 1 });
    const slider = screen.getByRole("slider", { name: "Summary threshold" });
    fireEvent.change(slider, { target: { value: "1" } });
    expect(last().summaryThreshold).toBe(2);
  });
});

describe("ThresholdPanel > thresholds", () => {
  it("sends null when a threshold is disabled and restores the last value when enabled again", async () => {
    const { last } = renderPanel({ ...DEFAULT_SETTINGS, summaryThreshold: 42 });
    const toggle = screen.getByRole("checkbox", { name: "Summary threshold: disabled" });
    await userEvent.click(toggle);
    expect(last().summaryThreshold).toBeNull();
    expect(screen.getByRole("slider", { name: "Summary threshold" })).toHaveProperty("disabled", true);
    await userEvent.click(toggle);
    expect(last().summaryThreshold).toBe(42);
  });

  it("turns a preset-disabled threshold on at a fallback value", async () => {
    const { last } = renderPanel(settingsForMode("pilot"));
    expect(screen.getByRole("checkbox", { name: "Offload threshold: disabled" })).toHaveProperty("checked", true);
    await userEvent.click(screen.getByRole("checkbox", { name: "Offload threshold: disabled" }));
    expect(last().offloadThreshold).toBe(50);
  });
});

describe("ThresholdPanel > budget, window and reserve", () => {
  it("[E-RB3] has no hard budget until one is set: the window is the limit", async () => {
    const { last } = renderPanel();
    const toggle = screen.getByRole("checkbox", { name: "Token budget: none" });
    expect(toggle).toHaveProperty("checked", true);
    expect(screen.getByRole("slider", { name: "Token budget" })).toHaveProperty("disabled", true);
    await userEvent.click(toggle);
    expect(last().tokenBudget).toBe(128_000 - 8_192);
  });

  it("[ST-4] takes the window and reserve from the model until set by hand, and gives them back to it", async () => {
    const { last } = renderPanel();
    expect(screen.getByText("128,000 from the model")).toBeTruthy();
    const toggle = screen.getByRole("checkbox", { name: "Context window: from model" });
    await userEvent.click(toggle);
    expect(last().contextWindow).toBe(128_000);
    fireEvent.change(screen.getByRole("spinbutton", { name: "Context window" }), { target: { value: "64000" } });
    expect(last().contextWindow).toBe(64_000);
    await userEvent.click(toggle);
    expect(last().contextWindow).toBeNull();
  });
});

describe("ThresholdPanel > model and encoding", () => {
  it("[ST-4] counts with the model's encoding until one is chosen by hand", async () => {
    const { last } = renderPanel();
    const encoding = screen.getByRole("combobox", { name: "Encoding" });
    expect(within(encoding).getByRole("option", { name: "The model's (o200k_base)" })).toBeTruthy();
    await userEvent.selectOptions(encoding, "cl100k_base");
    expect(last().encoding).toBe("cl100k_base");
    expect(screen.getByRole("note", { name: "Model details" }).textContent).toContain("Counts are approximate: counted with cl100k_base, chosen by hand");
    await userEvent.selectOptions(encoding, "auto");
    expect(last().encoding).toBeNull();
  });

  it("[ST-4] choosing a model gives the window, reserve and encoding back to it", async () => {
    const { last } = renderPanel({ ...DEFAULT_SETTINGS, contextWindow: 50_000, encoding: "cl100k_base" });
    const model = screen.getByRole("combobox", { name: "Model" });
    await userEvent.clear(model);
    await userEvent.type(model, "gpt-4");
    expect(last()).toMatchObject({ model: "gpt-4", contextWindow: null, maxOutputTokens: null, encoding: null });
    expect(screen.getByRole("option", { name: "The model's (cl100k_base)" })).toBeTruthy();
    expect(screen.getByText("8,192 from the model")).toBeTruthy();
    expect(screen.getByText("2,048 from the model")).toBeTruthy();
  });

  it("[ST-4] says when counts are approximate for the chosen model", async () => {
    renderPanel({ ...DEFAULT_SETTINGS, model: "claude-sonnet-4-5" });
    expect(screen.getByRole("option", { name: "Approximate (o200k_base)" })).toBeTruthy();
    expect(screen.getByRole("note", { name: "Model details" }).textContent).toContain("Counts are approximate: Claude's tokenizer is not public");
  });
});

describe("ThresholdPanel > processors", () => {
  it("passes processor edits through as settings.processors", async () => {
    const { last } = renderPanel();
    await userEvent.click(screen.getByRole("checkbox", { name: "Round window" }));
    expect(last().processors.find((entry) => entry.kind === "round_window")?.enabled).toBe(false);
    expect(last().processors.map((entry) => entry.kind)).toEqual(PROCESSOR_KINDS);
  });

  it("[ST-5] a strategy switched on shows its settings; an edit stores only that field, switching it off hides them", async () => {
    const { last } = renderPanel();
    expect(screen.queryByRole("group", { name: "Observation masking settings" })).toBeNull();
    await userEvent.click(screen.getByRole("checkbox", { name: "Observation masking" }));
    const group = screen.getByRole("group", { name: "Observation masking settings" });
    const kept = within(group).getByRole("spinbutton", { name: "Observations kept" });
    expect((kept as HTMLInputElement).value).toBe("5");
    fireEvent.change(kept, { target: { value: "2" } });
    expect(last().tuning).toEqual({ observation_masking: { keepObservations: 2 } });
    fireEvent.change(within(group).getByRole("textbox", { name: "Placeholder" }), { target: { value: "[masked]" } });
    expect(last().tuning).toEqual({ observation_masking: { keepObservations: 2, placeholder: "[masked]" } });
    await userEvent.click(screen.getByRole("checkbox", { name: "Tool-result clearing" }));
    const clearing = screen.getByRole("group", { name: "Tool-result clearing settings" });
    const tools = within(clearing).getByRole("textbox", { name: "Never clear these tools" }) as HTMLInputElement;
    await userEvent.type(tools, "search, get_order ,");
    expect(tools.value).toBe("search, get_order ,");
    expect(last().tuning.clear_tool_uses).toEqual({ excludeTools: ["search", "get_order"] });
    await userEvent.click(screen.getByRole("checkbox", { name: "Observation masking" }));
    expect(screen.queryByRole("group", { name: "Observation masking settings" })).toBeNull();
  });

  it("locks every control when disabled", () => {
    render(
      <ThresholdPanel
        settings={DEFAULT_SETTINGS}
        resolved={resolveSettings(DEFAULT_SETTINGS)}
        catalogue={[...BUILT_IN_MODELS]}
        onChange={() => undefined}
        disabled
      />,
    );
    for (const slider of screen.getAllByRole("slider")) expect(slider).toHaveProperty("disabled", true);
    expect(screen.getByRole("radio", { name: "Pilot" })).toHaveProperty("disabled", true);
    expect(screen.getByRole("checkbox", { name: "Round window" })).toHaveProperty("disabled", true);
  });
});
