import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";

const formats = path.join(import.meta.dirname, "..", "fixtures", "formats");

/** Imports one of the shared agent session files as a dropped file would be, and returns what the import made. */
async function importSession(request: APIRequestContext, file: string) {
  const response = await request.post(`/api/conversations/import?filename=${encodeURIComponent(file)}`, {
    data: readFileSync(path.join(formats, file), "utf8"),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(response.status()).toBe(201);
  return (await response.json()).conversations as { conversation: { id: string; title: string } }[];
}

test("[IM-10][IM-12] a Claude Code session shows each turn's time, model and usage, and its Task call opens the subagent it started", async ({
  page,
  request,
}) => {
  const [main, subagent] = await importSession(request, "claude-code-2.1.19-task-agent-progress.jsonl");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${main.conversation.id}`);
  await workspace.ready();

  const session = page.getByLabel("Session", { exact: true });
  await expect(session).toContainText("claude-code 2.1.19");
  await expect(session).toContainText("soph/fix-session-date-change-bug");
  await expect(session).toContainText("with 1 subagent");

  const first = workspace.row(0);
  await expect(first.locator("time")).toHaveAttribute("datetime", "2026-01-27T00:47:18.627Z");
  const answer = workspace.row(7);
  await expect(answer).toContainText("claude-opus-4-5-20251101");
  await expect(answer).toContainText(/[\d,]+ in · [\d,]+ written \(5 min\) · [\d,]+ out/);
  await expect(workspace.loaded).toContainText("2 min later");

  const link = page.getByRole("link", { name: /^subagent: 29 messages, [\d,]+ tokens/ });
  await link.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("session-facts.png") });
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/c/${subagent.conversation.id}`));
  await workspace.ready();
  await expect(page.getByRole("link", { name: new RegExp(`^subagent of ${main.conversation.title}`) })).toBeVisible();
});

test("[IM-11] the agent's compaction is marked where it replaced the history, and the Checkpoints tab shows its summary and tokens", async ({
  page,
  request,
}) => {
  const [{ conversation }] = await importSession(request, "claude-code-2.0.76-compaction.jsonl");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversation.id}?tab=checkpoints`);
  await workspace.ready();

  const find = page.getByRole("searchbox", { name: "Find in the conversation" });
  await find.fill("being continued from a previous conversation");
  await find.press("Enter");
  const note = page.getByRole("note").filter({ hasText: "Compacted by the agent (auto)" });
  await expect(note).toContainText("155,250 →");

  const table = page.getByRole("table", { name: "Checkpoints" });
  await table.getByRole("button", { name: /^Open checkpoint v1/ }).click();
  const detail = page.getByRole("region", { name: /^Checkpoint v1 / });
  await expect(detail).toContainText("compacted by the agent");
  await expect(detail).toContainText("claude-code (auto) replaced messages 0–16: 155,250 →");
  await expect(detail.getByLabel("Compaction summary")).toContainText("This session is being continued");
  await page.screenshot({ path: test.info().outputPath("compaction.png") });
});

test("[CC-11][CC-12] the Calls tab prices every call of an imported session and says why its cache broke, readable at 1280×720", async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const [{ conversation }] = await importSession(request, "claude-code-2.0.76-compaction.jsonl");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversation.id}?tab=calls`);
  await workspace.ready();

  const summary = page.getByLabel("Cost summary");
  await expect(summary).toContainText("12 API calls, 12 with reported usage");
  await expect(summary).toContainText(/total \$\d/);
  const timeline = page.getByRole("figure", { name: "Session timeline" });
  await expect(timeline).toBeVisible();
  const table = page.getByRole("table", { name: "Cost per call" });
  // A header, twelve calls and a line under each call whose cache broke.
  await expect(table.getByRole("rowheader")).toHaveCount(12);
  await expect(table).toContainText("Cache broke: idle past the cache's lifetime.");
  // The cost column is in view without scrolling sideways.
  const cost = table.getByRole("columnheader", { name: "Cost" });
  expect(((await cost.boundingBox())?.x ?? 9_999) + ((await cost.boundingBox())?.width ?? 0)).toBeLessThanOrEqual(1280);

  // Readable: the panel does not scroll sideways, and each call's number stays in view while its row scrolls.
  const panel = page.getByRole("region", { name: "Cost and cache" });
  const box = (await panel.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  const number = table.getByRole("rowheader").first();
  const cell = (await number.boundingBox())!;
  expect(cell.x).toBeGreaterThanOrEqual(box.x);
  expect(cell.x + cell.width).toBeLessThanOrEqual(box.x + box.width);
  await page.screenshot({ path: test.info().outputPath("calls-cost-1280x720.png") });
  await timeline.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("session-timeline-1280x720.png") });
});
