import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

test("undoes a slider change with the button and with Ctrl+Z, and the saved settings follow", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[2]), "undo");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  const rounds = workspace.slider("History rounds");
  const original = await rounds.inputValue();
  const window = await workspace.traceCounts("round_window");
  await rounds.fill("1");
  await expect.poll(async () => (await workspace.traceCounts("round_window")).messages[1]).toBeLessThan(window.messages[1]);

  await page.getByRole("button", { name: "Undo" }).click();
  await expect(rounds).toHaveValue(original);
  await expect.poll(async () => (await workspace.traceCounts("round_window")).messages[1]).toBe(window.messages[1]);
  await page.getByRole("button", { name: "Redo" }).click();
  await expect(rounds).toHaveValue("1");
  await page.keyboard.press("Control+z");
  await expect(rounds).toHaveValue(original);
  await expect(page.getByText("Settings saved")).toBeVisible();
  await page.reload();
  await workspace.ready();
  await expect(workspace.slider("History rounds")).toHaveValue(original);
});

test("exports a session and imports it back into a fresh start: history, branches and saved policies return", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[0]), "round trip");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  await page.getByRole("textbox", { name: "Policy name" }).fill("Tight window");
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByRole("list", { name: "Saved policy list" })).toContainText("Tight window");
  const totals = (await page.getByLabel("Conversation totals").textContent()) ?? "";

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export session" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.session\.jsonl$/);
  const saved = test.info().outputPath("round-trip.session.jsonl");
  await file.saveAs(saved);
  const lines = fs
    .readFileSync(saved, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { table?: string; row?: { id: string; name: string } });
  const rows = (table: string) => lines.filter((line) => line.table === table).map((line) => line.row!);
  expect(rows("conversation")[0].id).toBe(conversationId);
  expect(rows("messages")).toHaveLength(tauBench[0].traj.length);
  expect(rows("policies").map((policy) => policy.name)).toEqual(["Tight window"]);

  expect((await request.delete(`/api/conversations/${conversationId}`)).status()).toBe(204);
  await page.goto("/");
  await page.getByLabel("Import a session file").setInputFiles(saved);
  await page.waitForURL(`**/c/${conversationId}`);
  await workspace.ready();
  await expect(page.getByLabel("Conversation totals")).toHaveText(totals);
  await expect(page.getByRole("list", { name: "Saved policy list" })).toContainText("Tight window");

  // The same file again: the conversation is stored already, nothing is written.
  await page.goto("/");
  await page.getByLabel("Import a session file").setInputFiles(saved);
  await expect(page.getByRole("alert").filter({ hasText: "already stored" })).toBeVisible();
});

test("applies the observation-masking preset, tunes it, saves it as a policy, and both survive a reload", async ({ page, request }) => {
  // A trajectory with tool results in several rounds: masking acts only on rounds the model has finished.
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[4]), "preset");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  await page.getByRole("combobox", { name: "Preset" }).selectOption({ label: "Observation masking" });
  await page.getByRole("button", { name: "Apply preset" }).click();
  await expect(page.getByRole("checkbox", { name: "Observation masking" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Round window" })).not.toBeChecked();
  await expect(workspace.traceRow("observation_masking")).toBeVisible();
  const masked = await workspace.traceCounts("observation_masking");

  const kept = page.getByRole("group", { name: "Observation masking settings" }).getByRole("spinbutton", { name: "Observations kept" });
  await expect(kept).toHaveValue("5");
  await kept.fill("1");
  await expect.poll(async () => (await workspace.traceCounts("observation_masking")).tokens[1]).toBeLessThan(masked.tokens[1]);
  await page.getByRole("textbox", { name: "Policy name" }).fill("Masking, one kept");
  await page.getByRole("button", { name: "Save policy" }).click();
  const saved = page.getByRole("list", { name: "Saved policy list" });
  await expect(saved).toContainText("Masking, one kept");
  await expect(page.getByText("Settings saved")).toBeVisible();

  await page.reload();
  await workspace.ready();
  await expect(kept).toHaveValue("1");
  // Back to the copilot preset, then the saved policy again: the strategy and its setting return.
  await page.getByRole("combobox", { name: "Preset" }).selectOption({ label: "Copilot" });
  await page.getByRole("button", { name: "Apply preset" }).click();
  await expect(page.getByRole("checkbox", { name: "Observation masking" })).not.toBeChecked();
  await expect(workspace.traceRow("observation_masking")).toHaveCount(0);
  await page.getByRole("button", { name: "Apply Masking, one kept" }).click();
  await expect(kept).toHaveValue("1");
  await expect(workspace.traceRow("observation_masking")).toBeVisible();
});
