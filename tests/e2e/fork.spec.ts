import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

test("forking after a selected message creates a branch; the parent keeps every message", async ({ page, request }) => {
  const { conversationId, branchId } = await importConversation(request, JSON.stringify(tauBench[0]), "fork");
  const total = tauBench[0].traj.length;
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();

  await workspace.row(5).click();
  await expect(workspace.row(5)).toHaveAttribute("aria-current", "true");
  await expect(workspace.fork).toHaveText("Fork after #5");
  await workspace.fork.click();

  await expect.poll(() => workspace.search().get("branch")).not.toBe(branchId);
  await workspace.ready();
  await expect(page.getByLabel("Conversation totals")).toContainText("6 messages");
  await expect(workspace.branch.getByRole("option")).toHaveCount(2);
  await page.screenshot({ path: test.info().outputPath("fork-child.png") });

  // The parent is unchanged, through the UI and the API.
  await workspace.branch.selectOption(branchId);
  await expect(page.getByLabel("Conversation totals")).toContainText(`${total} messages`);
  const messages = await request.get(`/api/branches/${branchId}/messages`);
  expect(((await messages.json()) as { messages: unknown[] }).messages).toHaveLength(total);

  // The URL names the branch: going back returns to the child.
  await page.goBack();
  await expect(page.getByLabel("Conversation totals")).toContainText("6 messages");

  // One click from any message: the row's own fork button.
  await workspace.row(2).hover();
  await workspace.row(2).getByRole("button", { name: "Fork a branch after #2" }).click();
  await expect(page.getByLabel("Conversation totals")).toContainText("3 messages");
  await expect(workspace.branch.getByRole("option")).toHaveCount(3);
});

test("switching to a branch longer than a screen shows its first messages, then the pipeline runs over all of it", async ({ page, request }) => {
  const { conversationId, branchId } = await importConversation(request, JSON.stringify(tauBench[2]), "long switch");
  const total = tauBench[2].traj.length;
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  await workspace.row(5).click();
  await workspace.fork.click();
  await expect.poll(() => workspace.search().get("branch")).not.toBe(branchId);
  await workspace.ready();

  // Only the first screen comes through the page's own fetch; the pipeline reads the rest.
  const pages: string[] = [];
  page.on("request", (sent) => {
    if (sent.url().includes(`/api/branches/${branchId}/messages`)) pages.push(new URL(sent.url()).search);
  });
  await workspace.branch.selectOption(branchId);
  await expect(page.getByLabel("Conversation totals")).toContainText(`${total} messages`);
  await expect(workspace.status).toContainText(/Run \d+/);
  await expect.poll(async () => (await workspace.traceCounts("message_offloader")).messages[0]).toBe(total);
  expect(pages[0]).toBe("?from=0&to=40");
});
