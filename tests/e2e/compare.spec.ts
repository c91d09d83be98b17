import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { ComparePage } from "./pages/compare";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

const cheaper = (figures: Map<string, number>, labels: string[]) =>
  labels.reduce((best, label) => ((figures.get(label) ?? Infinity) < (figures.get(best) ?? Infinity) ? label : best));
const dollars = (text: string) => Number(text.replace(/[^\d.]/g, ""));

test("compares two policies on a real tau-bench trajectory: the chart and the table name the same cheaper one", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[2]), "compare");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}?tab=compare`);
  await workspace.ready();
  const compare = new ComparePage(page);
  await compare.slot(1).selectOption({ label: "Current settings" });
  await compare.slot(2).selectOption({ label: "Observation masking" });
  await compare.run();
  const policies = ["Current settings", "Observation masking"];
  await expect(compare.table.getByRole("rowheader")).toHaveText(["Raw", ...policies].map((label) => new RegExp(`^${label}`)));

  // The chart: each run's summed cost per call and its cumulative input tokens, as the legends state them.
  const chartCost = await compare.legend("Cost per call");
  const chartTokens = await compare.legend("Cumulative input tokens");
  // The table: the same runs' totals.
  const tableCost = new Map([...(await compare.column("Cost")).entries()].map(([label, text]) => [label, dollars(text)]));
  const tableTokens = new Map([...(await compare.column("Input tokens")).entries()].map(([label, text]) => [label, Number(text.replace(/\D/g, ""))]));
  expect(cheaper(chartCost, policies)).toBe(cheaper(tableCost, policies));
  expect(cheaper(chartTokens, policies)).toBe(cheaper(tableTokens, policies));
  for (const label of policies) expect(chartTokens.get(label)).toBe(tableTokens.get(label));
  // Masking replaces old tool results: on a conversation with many of them it sends fewer tokens than raw.
  expect(tableTokens.get("Observation masking")).toBeLessThan(tableTokens.get("Raw")!);
  await page.screenshot({ path: test.info().outputPath("compare.png"), fullPage: true });

  // A call's request, diffed between raw and the masking policy.
  await page.getByRole("combobox", { name: "Diff to" }).selectOption({ label: "Observation masking" });
  const calls = page.getByRole("combobox", { name: "Call" }).getByRole("option");
  await page.getByRole("combobox", { name: "Call" }).selectOption({ index: (await calls.count()) - 1 });
  const drill = page.getByRole("region", { name: "Call drill-down" });
  await expect(drill.getByLabel("Diff summary")).toContainText(/[1-9]\d* replaced/);
  const download = page.waitForEvent("download");
  await drill.getByRole("button", { name: "Anthropic Messages" }).click();
  const file = await download;
  const body = JSON.parse(fs.readFileSync(await file.path(), "utf8")) as { model: string; messages: unknown[]; max_tokens: number };
  expect(body.messages.length).toBeGreaterThan(0);
  expect(body.max_tokens).toBeGreaterThan(0);
});

test("a compared preset is applied to the settings and saved as a policy from the comparison", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[2]), "compare and keep");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}?tab=compare`);
  await workspace.ready();
  const compare = new ComparePage(page);
  await compare.slot(1).selectOption({ label: "Tool-result clearing" });
  await compare.slot(2).selectOption({ value: "" });
  await compare.run();
  await expect(compare.table.getByRole("rowheader")).toHaveText([/^Raw/, /^Tool-result clearing/]);
  await page.getByRole("combobox", { name: "Policy to export" }).selectOption({ label: "Tool-result clearing" });
  await page.getByRole("button", { name: "Save as policy" }).click();
  await expect(page.getByText("Saved “Tool-result clearing” as a policy of this conversation.")).toBeVisible();
  await expect(compare.slot(1).getByRole("option", { name: "Tool-result clearing" })).toHaveCount(2);
  await page.getByRole("button", { name: "Apply to settings" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();
  const saved = await (await request.get(`/api/conversations/${conversationId}`)).json();
  expect(saved.conversation.settings.processors.filter((entry: { enabled: boolean }) => entry.enabled).map((entry: { kind: string }) => entry.kind)).toEqual([
    "clear_tool_uses",
  ]);
  expect(saved.conversation.settings.tuning.clear_tool_uses.keepToolUses).toBe(3);
});
