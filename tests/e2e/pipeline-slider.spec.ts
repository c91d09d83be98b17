import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

test("moving the history-rounds slider re-runs the pipeline: the trace, the budget bar and the history change", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[2]), "slider");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  const window = await workspace.traceCounts("round_window");
  const budgetBefore = await workspace.budgetBar.getAttribute("aria-label");
  await page.screenshot({ path: test.info().outputPath("slider-before.png") });

  await workspace.slider("History rounds").fill("1");
  await expect.poll(async () => (await workspace.traceCounts("round_window")).messages[1]).toBeLessThan(window.messages[1]);
  await expect.poll(() => workspace.budgetBar.getAttribute("aria-label")).not.toBe(budgetBefore);
  // Rows the round window dropped are marked in the before view; the after view holds fewer messages.
  await expect(workspace.loaded.locator('[data-gone="true"]').first()).toBeVisible();
  await workspace.after.click();
  await expect(workspace.processed).toBeVisible();
  const afterCount = Number((await workspace.after.innerText()).replace(/\D/g, ""));
  expect(afterCount).toBeLessThan(tauBench[2].traj.length);
  await page.screenshot({ path: test.info().outputPath("slider-after.png") });

  // The settings are saved to the conversation: a reload keeps them.
  await expect(page.getByText("Settings saved")).toBeVisible();
  await page.reload();
  await workspace.ready();
  await expect(workspace.slider("History rounds")).toHaveValue("1");
});

test("a smaller token budget trims the oldest rounds; one below the smallest valid history stops deterministically", async ({ page, request }) => {
  // Task 0 ends on a short round, so a small budget still leaves a valid history: system and that round.
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[0]), "budget");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  const budget = await workspace.traceCounts("token_budget");
  // No hard budget until one is set: the window is the limit.
  await page.getByRole("checkbox", { name: "Token budget: none" }).click();
  const field = page.getByRole("spinbutton", { name: "Token budget" });
  await field.fill("2000");
  await field.press("Enter");
  await expect.poll(async () => (await workspace.traceCounts("token_budget")).tokens[1]).toBeLessThan(budget.tokens[1]);
  expect((await workspace.traceCounts("token_budget")).tokens[1]).toBeLessThanOrEqual(2000);
  await expect(workspace.budgetBar).toHaveAttribute("aria-label", /tokens sent of a 2,000-token limit/);
  await page.screenshot({ path: test.info().outputPath("budget-trimmed.png") });

  await field.fill("500");
  await field.press("Enter");
  const verdict = page.getByRole("region", { name: "Token budget" });
  await expect(verdict).toContainText("Over budget: nothing would be sent.");
  await page.screenshot({ path: test.info().outputPath("budget-exceeded.png") });
});

test("selecting a trace step shows the history that processor received and returned, as a diff", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[0]), "step diff");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  await workspace.traceRow("dialogue_compressor").getByRole("button", { name: "dialogue_compressor" }).click();
  const diff = page.getByRole("region", { name: "Changes made by dialogue_compressor" });
  await expect(diff).toBeVisible();
  await expect(diff.getByRole("list", { name: "Changed messages" }).getByRole("listitem").first()).toBeVisible();
  await expect.poll(() => workspace.search().get("step")).toBe("1");
  await page.screenshot({ path: test.info().outputPath("step-diff.png") });
  // The next step with ] and the diff follows.
  await page.keyboard.press("]");
  await expect(page.getByRole("region", { name: "Changes made by round_window" })).toBeVisible();
});
