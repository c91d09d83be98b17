import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { presetPolicy, type CompareResult } from "@/lib/context";
import { readRequest } from "@/lib/formats";
import { PipelineHost } from "@/lib/playground/pipeline-host";
import { resolveSettings, settingsForMode } from "@/lib/settings";
import { PlaygroundStoreProvider } from "@/lib/store/provider";
import { hostPipeline, sampleBranch, sampleConversation, sampleRecords, sampleTrajectories } from "@/lib/store/test-support";
import { useScreenLayout } from "@/tests/support/screen-layout";
import { compareRows, comparisonCsv, REQUEST_FORMATS, requestOfCall, seriesOf } from "./compare-format";
import { ComparePanel } from "./compare-panel";
import { CompareTable } from "./compare-table";
import { LineChart } from "./line-chart";

// Counts the charts drawn: a comparison's progress must not draw the last comparison's charts again.
const drawn = vi.hoisted(() => ({ charts: 0 }));
vi.mock("./line-chart", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./line-chart")>();
  return {
    ...actual,
    LineChart: (props: Parameters<typeof actual.LineChart>[0]) => {
      drawn.charts += 1;
      return actual.LineChart(props);
    },
  };
});

const sample = sampleTrajectories;
const prices = { input: 2.5, cachedInput: 1.25, output: 10 };
const tools = [
  {
    type: "function" as const,
    function: {
      name: "get_reservation_details",
      description: "Reservation by id",
      parameters: { type: "object", properties: { reservation_id: { type: "string" } } },
    },
  },
];

useScreenLayout();
afterEach(cleanup);

let shared: CompareResult | undefined;
async function comparison(): Promise<CompareResult> {
  if (shared) return shared;
  const host = new PipelineHost();
  host.load("task", sample[0].traj, tools);
  shared = await host.compare({
    policies: [
      { id: "copilot", label: "Copilot", policy: resolveSettings(settingsForMode("copilot")).policy },
      { id: "masking", label: "Observation masking", policy: presetPolicy("observation_masking") },
    ],
    prices,
  });
  return shared;
}

describe("comparison figures", () => {
  it("[E-RP9] gives each run's totals against raw and marks the cheapest", async () => {
    const result = await comparison();
    const rows = compareRows(result);
    expect(rows.map((row) => row.id)).toEqual(["raw", "copilot", "masking"]);
    expect(rows[0].ratio).toBe(1);
    const cheapest = rows.filter((row) => row.cheapest);
    expect(cheapest).toHaveLength(1);
    expect(cheapest[0].cost).toBe(Math.min(...rows.map((row) => row.cost as number)));
    expect(rows.every((row) => row.inputTokens === result.runs.find((run) => run.id === row.id)!.replay.totals.inputTokens)).toBe(true);
  });

  it("[CT2] marks a run counted with a tokenizer standing in for its model's as approximate", async () => {
    const result = await comparison();
    const exactly = compareRows(result);
    const policy = result.runs[1].replay.policy;
    expect(exactly[1].approximate).toBe(false);
    // The same run on a Claude model, whose tokenizer o200k_base only approximates.
    const onClaude = {
      ...result,
      runs: result.runs.map((run, index) => (index === 1 ? { ...run, replay: { ...run.replay, policy: { ...policy, model: "claude-sonnet-4-5" } } } : run)),
    };
    expect(compareRows(onClaude).map((row) => row.approximate)).toEqual([exactly[0].approximate, true, exactly[2].approximate]);
  });

  it("writes every call of every run as CSV whose input column adds up to each run's total", async () => {
    const result = await comparison();
    const lines = comparisonCsv(result).trimEnd().split("\r\n");
    expect(lines[0].split(",").slice(0, 4)).toEqual(["policy", "call", "message", "input_tokens"]);
    expect(lines).toHaveLength(1 + result.runs.reduce((sum, run) => sum + run.replay.calls.length, 0));
    for (const run of result.runs) {
      const sum = lines
        .slice(1)
        .map((line) => line.split(","))
        .filter((cells) => cells[0] === run.label)
        .reduce((total, cells) => total + Number(cells[3]), 0);
      expect(sum).toBe(run.replay.totals.inputTokens);
    }
  });

  it("exports a call's processed request in each wire format with its tools, readable back", async () => {
    const result = await comparison();
    const run = result.runs[2];
    const call = run.replay.calls.at(-1)!;
    for (const { format } of REQUEST_FORMATS) {
      const body = JSON.parse(requestOfCall(format, call, run, tools).text) as Record<string, unknown>;
      expect(body.model).toBe(run.replay.policy.model);
      const read = readRequest(format, body);
      expect(read.messages.length).toBeGreaterThan(0);
      expect((read.tools ?? []).map((tool) => tool.function.name).sort()).toEqual([...call.toolNames].sort());
    }
    const chat = readRequest("openai-chat", JSON.parse(requestOfCall("openai-chat", call, run, tools).text));
    expect(chat.messages).toEqual(call.messages);
  });

  it("shows the cheapest run in the table and the same totals in the chart legend", async () => {
    const result = await comparison();
    const rows = compareRows(result);
    render(
      <>
        <LineChart title="Cumulative input tokens" series={seriesOf(result, "cumulative")} format={(value) => String(value)} legend="last" />
        <CompareTable rows={rows} riskRun={null} onShowRisks={() => undefined} />
      </>,
    );
    const legend = screen.getByRole("list", { name: "Cumulative input tokens legend" });
    const legendValues = within(legend)
      .getAllByRole("listitem")
      .map((item) => Number(item.getAttribute("data-value")));
    expect(legendValues).toEqual(rows.map((row) => row.inputTokens));
    const table = screen.getByRole("table", { name: "Comparison totals" });
    const cheapestRow = within(table)
      .getAllByRole("row")
      .find((row) => row.hasAttribute("data-cheapest"))!;
    expect(within(cheapestRow).getByRole("rowheader").textContent).toBe(`${rows.find((row) => row.cheapest)!.label}cheapest`);
  });
});

describe("ComparePanel", () => {
  const conversation = sampleConversation(tools);
  const branch = sampleBranch(sample[0].traj.length);
  const records = sampleRecords(sample[0].traj);

  it("[E-RP9] compares the current settings with a preset, then drills into a call's request diff", async () => {
    render(
      <PlaygroundStoreProvider conversation={{ conversation, branch, records }} createPipeline={hostPipeline}>
        <ComparePanel />
      </PlaygroundStoreProvider>,
    );
    const compare = screen.getByRole("button", { name: "Compare" });
    await waitFor(() => expect((compare as HTMLButtonElement).disabled).toBe(false));
    fireEvent.change(screen.getByRole("combobox", { name: "Policy 3" }), { target: { value: "preset:budget_only" } });
    fireEvent.click(compare);
    const table = await screen.findByRole("table", { name: "Comparison totals" }, { timeout: 20_000 });
    expect(
      within(table)
        .getAllByRole("rowheader")
        .map((cell) => cell.textContent?.replace("cheapest", "")),
    ).toEqual(["Raw", "Current settings", "Observation masking", "Budget only"]);
    expect(screen.getByRole("img", { name: /^Cumulative input tokens: Raw [\d,]+ tokens; Current settings/ })).toBeTruthy();
    fireEvent.change(screen.getByRole("combobox", { name: "Call" }), { target: { value: "5" } });
    fireEvent.change(screen.getByRole("combobox", { name: "Diff to" }), { target: { value: "preset:observation_masking" } });
    const drill = screen.getByRole("region", { name: "Call drill-down" });
    expect(within(drill).getByLabelText("Diff summary").textContent).toMatch(/replaced/);
    expect(within(drill).getByRole("group", { name: "Export the request of Observation masking" })).toBeTruthy();
  });

  it("[UI-C1] comparing again draws the last comparison's charts once at the start and once with the result, not at every replayed call", async () => {
    let progressMessages = 0;
    const counted = () => {
      const pipeline = hostPipeline();
      const compare = pipeline.compare!;
      pipeline.compare = (input, onProgress) =>
        compare(input, (progress) => {
          progressMessages += 1;
          onProgress?.(progress);
        });
      return pipeline;
    };
    render(
      <PlaygroundStoreProvider conversation={{ conversation, branch, records }} createPipeline={counted}>
        <ComparePanel />
      </PlaygroundStoreProvider>,
    );
    const compare = screen.getByRole("button", { name: "Compare" });
    await waitFor(() => expect((compare as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(compare);
    await screen.findByRole("table", { name: "Comparison totals" }, { timeout: 20_000 });
    await waitFor(() => expect((compare as HTMLButtonElement).disabled).toBe(false));
    progressMessages = 0;
    drawn.charts = 0;
    fireEvent.click(compare);
    await waitFor(() => expect(screen.queryByRole("progressbar", { name: "Comparison progress" })).toBeNull(), { timeout: 20_000 });
    expect(progressMessages).toBeGreaterThan(20);
    // Three charts, drawn when the run starts (Compare disabled) and when its result replaces the last one.
    expect(drawn.charts).toBeLessThanOrEqual(6);
  });
});

describe("trace export", () => {
  it("writes one CSV row per processor step, quoting what needs it", async () => {
    const { traceCsv } = await import("@/components/pipeline/trace-export");
    const host = new PipelineHost();
    host.load("task", sample[0].traj);
    const run = await host.run({ settings: resolveSettings(settingsForMode("navigator")) });
    const lines = traceCsv(run.steps).trimEnd().split("\r\n");
    expect(lines).toHaveLength(run.steps.length + 1);
    expect(lines.slice(1).map((line) => line.split(",")[1])).toEqual(run.steps.map((step) => step.processor));
    expect(lines[1].split(",")[4]).toBe(String(run.steps[0].tokensBefore));
  });
});
