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
  const saved = test.info().outputPath("round-trip.session.json");
  await file.saveAs(saved);
  const session = JSON.parse(fs.readFileSync(saved, "utf8")) as { conversation: { id: string }; messages: unknown[]; policies: { name: string }[] };
  expect(session.conversation.id).toBe(conversationId);
  expect(session.messages).toHaveLength(tauBench[0].traj.length);
  expect(session.policies.map((policy) => policy.name)).toEqual(["Tight window"]);

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
