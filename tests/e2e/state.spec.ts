import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

test("context-state tree: the conversation's context and the run forked from it, own and inherited keys", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[0]), "state");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}?tab=state`);
  await workspace.ready();
  await expect(workspace.tab("State")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("button", { name: "Context conversation" })).toBeVisible();
  const run = page.getByRole("button", { name: /^Context run \d+/ });
  await expect(run).toBeVisible();
  await expect(run).toContainText(/own/);
  await expect(run).toContainText(/inherited/);
  await page.screenshot({ path: test.info().outputPath("state-tree.png") });

  // A new run (a setting moved) replaces the run context in the tree.
  const before = await run.getAttribute("aria-label");
  await page.keyboard.press("p");
  await expect.poll(() => page.getByRole("button", { name: /^Context run \d+/ }).getAttribute("aria-label")).not.toBe(before);
});
