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

test("switching to a branch longer than a screen shows its first messages and the server's result, then the worker's run over all of it", async ({
  page,
  request,
}) => {
  const { conversationId, branchId } = await importConversation(request, JSON.stringify(tauBench[2]), "long switch");
  const total = tauBench[2].traj.length;
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  await workspace.row(5).click();
  await workspace.fork.click();
  await expect.poll(() => workspace.search().get("branch")).not.toBe(branchId);
  await workspace.ready();

  // Every result the workspace renders from here on, in order.
  await page.evaluate(() => {
    const marker = document.querySelector("[data-rendered-origin]")!;
    const seen: string[] = [];
    (window as unknown as { seenOrigins: string[] }).seenOrigins = seen;
    new MutationObserver(() => seen.push(`${marker.getAttribute("data-rendered-origin")}`)).observe(marker, { attributes: true });
  });
  const openings: string[] = [];
  page.on("request", (sent) => {
    if (sent.url().includes(`/api/branches/${branchId}/`)) openings.push(new URL(sent.url()).pathname.split("/").at(-1)!);
  });
  await workspace.branch.selectOption(branchId);
  await expect(page.getByLabel("Conversation totals")).toContainText(`${total} messages`);
  await expect.poll(() => page.evaluate(() => (window as unknown as { seenOrigins: string[] }).seenOrigins.at(-1))).toBe("worker");
  await expect.poll(async () => (await workspace.traceCounts("message_offloader")).messages[0]).toBe(total);
  const seen = await page.evaluate(() => (window as unknown as { seenOrigins: string[] }).seenOrigins.filter((origin) => origin !== ""));
  expect(seen).toEqual(["server", "worker"]);
  // The branch opens with one request; the worker pages through the rest.
  expect(openings[0]).toBe("opening");
  expect(openings.filter((name) => name === "opening")).toHaveLength(1);
});
