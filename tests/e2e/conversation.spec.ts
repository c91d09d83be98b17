import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

test("conversation view: hovering a call lights its result and back, rows link both ways, long content expands", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[1]), "hover");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  const calling = tauBench[1].traj.findIndex((message) => (message as { tool_calls?: unknown[] }).tool_calls?.length);
  const call = workspace.row(calling).getByRole("button", { name: /^Go to the result of / });
  await call.hover();
  await expect(workspace.row(calling + 1)).toHaveAttribute("data-linked", "true");
  await workspace.row(calling + 1).hover();
  await expect(workspace.row(calling)).toHaveAttribute("data-linked", "true");
  await page.screenshot({ path: test.info().outputPath("hover-link.png") });
  await call.click();
  await expect(workspace.row(calling + 1)).toHaveAttribute("aria-current", "true");

  const expand = workspace.row(0).getByRole("button", { name: /^Show all \d+ lines/ });
  await expand.click();
  await expect(workspace.row(0).getByRole("button", { name: "Collapse" })).toBeVisible();
});

test("[UI-S1] the search marks its matches in the rows shown", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[1]), "search");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  await page.getByRole("searchbox", { name: "Find in the conversation" }).fill("reservation");
  const marked = () => page.evaluate(() => [...(CSS.highlights.get("conversation-search") ?? [])].map((range) => (range as Range).toString().toLowerCase()));
  await expect.poll(async () => (await marked()).length).toBeGreaterThan(0);
  expect(new Set(await marked())).toEqual(new Set(["reservation"]));
  await page.screenshot({ path: test.info().outputPath("search-marks.png") });
  await page.getByRole("searchbox", { name: "Find in the conversation" }).fill("");
  await expect.poll(async () => (await marked()).length).toBe(0);
});

test("ten thousand messages: only a window of rows is in the page, and the last one is a keypress away", async ({ page, request }) => {
  const messages = Array.from({ length: 10_000 }, (_, index) =>
    index % 2 === 0
      ? { role: "user", content: `Question ${index}: what is the status of order ${index}?` }
      : { role: "assistant", content: `Order ${index - 1} shipped on day ${index % 30}.` },
  );
  const { conversationId } = await importConversation(request, JSON.stringify(messages), "ten thousand");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  await expect(page.getByLabel("Conversation totals")).toContainText("10,000 messages");
  expect(await workspace.loaded.getByRole("listitem").count()).toBeLessThan(80);
  await page.keyboard.press("G");
  await expect(workspace.row(9_999)).toBeVisible();
  await expect(workspace.row(9_999)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("k");
  await expect(workspace.row(9_998)).toHaveAttribute("aria-current", "true");

  // Find reaches rows that are not in the page: "/" focuses it, Enter goes to the next match.
  await page.keyboard.press("/");
  const find = page.getByRole("searchbox", { name: "Find in the conversation" });
  await expect(find).toBeFocused();
  await find.fill("order 4242?");
  await find.press("Enter");
  await expect(workspace.row(4_242)).toHaveAttribute("aria-current", "true");
  await expect(page.getByText("1 of 1")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("ten-thousand.png") });
});
