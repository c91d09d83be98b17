import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

test("branch tree: fork from the Branches panel, switch, and see where the two branches diverge", async ({ page, request }) => {
  const { conversationId, branchId } = await importConversation(request, JSON.stringify(tauBench[4]), "branches");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}?tab=branches`);
  await workspace.ready();
  await workspace.row(9).click();
  await page.getByRole("button", { name: "Fork after message 9" }).click();
  await expect.poll(() => workspace.search().get("branch")).not.toBe(branchId);
  const child = workspace.search().get("branch");
  await expect(page.getByLabel("Conversation totals")).toContainText("10 messages");

  // Give the child a different continuation, through the API, and compare.
  const appended = await request.post(`/api/branches/${child}/messages`, {
    data: { messages: [{ role: "user", content: "Actually, cancel everything instead." }] },
  });
  expect(appended.ok()).toBe(true);
  await page.reload();
  await workspace.ready();
  await expect(page.getByLabel("Conversation totals")).toContainText("11 messages");
  const tree = page.getByRole("region", { name: "Branch tree" });
  const boxes = tree.getByRole("checkbox", { name: /^Compare / });
  await expect(boxes).toHaveCount(2);
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  const compare = page.getByRole("region", { name: "Compare branches" });
  await expect(compare.getByRole("region", { name: /^First differing message of / }).first()).toContainText(/#10\b/);
  await page.screenshot({ path: test.info().outputPath("branches-divergence.png") });
});
