import { expect, test, type Page } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { AIRLINE_SYSTEM, AIRLINE_TOOLS } from "./support/airline-agent";
import { fakeUpstream } from "./support/fake-upstream";
import { upstreamBaseUrl } from "./support/upstream-ports";

test.beforeEach(() => fakeUpstream.reset());

async function createConversation(page: Page, title: string, settings: Record<string, unknown>): Promise<string> {
  const response = await page.request.post("/api/conversations", {
    data: { title, messages: [{ role: "system", content: AIRLINE_SYSTEM }], tools: AIRLINE_TOOLS, settings },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { conversation: { id: string } }).conversation.id;
}

/** Records every length the reply log's text goes through, so a test can tell a stream from a single paint. */
async function watchReplyLengths(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { replyLengths: number[] }).replyLengths = seen;
    new MutationObserver(() => {
      const length = document.querySelector('[role="log"][aria-label="Assistant reply"]')?.textContent?.length ?? 0;
      if (seen.at(-1) !== length) seen.push(length);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

test("record a chat: type a turn, watch the reply stream in, answer a tool call by hand, see the checkpoint when the threshold is crossed", async ({
  page,
}) => {
  const conversationId = await createConversation(page, "recorded chat", { summaryThreshold: 4 });
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}?tab=checkpoints`);
  await workspace.ready();
  const recorder = page.getByRole("region", { name: "Chat recorder" });
  await expect(recorder.getByLabel("Upstream status")).toContainText(`${upstreamBaseUrl} · key …0001 · model gpt-4o`);
  const composer = recorder.getByRole("textbox", { name: "User turn" });
  const reply = recorder.getByRole("log", { name: "Assistant reply" });
  const checkpoints = page.getByRole("table", { name: "Checkpoints" });

  // Turn 1: Shift+Enter is a new line, Enter sends; the echo streams in 3 characters at a time.
  await watchReplyLengths(page);
  await composer.fill("Hi, I need help");
  await composer.press("Shift+Enter");
  await composer.pressSequentially("with reservation 8JX2WO.");
  await composer.press("Enter");
  await expect(composer).toHaveValue("");
  await expect(reply).toContainText("echo: Hi, I need help\nwith reservation 8JX2WO.");
  const lengths = await page.evaluate(() => (window as unknown as { replyLengths: number[] }).replyLengths);
  expect(new Set(lengths).size).toBeGreaterThan(5);
  await expect(workspace.row(1)).toContainText("with reservation 8JX2WO.");
  await expect(workspace.row(2)).toContainText("echo: Hi, I need help");
  await page.screenshot({ path: test.info().outputPath("recorder-1-streamed.png") });

  // Turn 2: the model calls a tool; its result is pasted by hand.
  await fakeUpstream.enqueue({
    content: "Let me look that up.",
    toolCalls: [{ id: "call_e2e_1", name: "get_reservation_details", arguments: '{"reservation_id":"8JX2WO"}' }],
    chunkDelayMs: 15,
  });
  await composer.fill("Where does it go?");
  await composer.press("Enter");
  const pending = recorder.getByRole("form", { name: "Pending tool calls" });
  await expect(pending).toBeVisible();
  await expect(reply).toContainText('→ get_reservation_details({"reservation_id":"8JX2WO"})');
  await expect(composer).toBeDisabled();
  await pending
    .getByRole("textbox", { name: "Result of get_reservation_details (call_e2e_1)" })
    .fill('{"reservation_id": "8JX2WO", "origin": "BOS", "destination": "SEA"}');
  await page.screenshot({ path: test.info().outputPath("recorder-2-tool-result.png") });
  await pending.getByRole("button", { name: "Send results" }).click();
  await expect(pending).toBeHidden();
  await expect(reply).toContainText("echo: Where does it go?");
  await expect(workspace.row(4)).toContainText("get_reservation_details");
  await expect(workspace.row(5)).toContainText("SEA");
  await expect(workspace.row(6)).toContainText("echo: Where does it go?");
  await expect(page.getByText("No checkpoints on this branch yet")).toBeVisible();

  // Turn 3 makes 7 raw messages in 3 rounds, over the threshold of 4: a summary (by the upstream's model) and checkpoint v1.
  await composer.fill("Thanks! Is it a direct flight?");
  await composer.press("Enter");
  await expect(recorder.getByText(/^Checkpoint v1 created \(threshold/)).toBeVisible();
  await expect(checkpoints.getByRole("row")).toHaveCount(2);
  await expect(checkpoints.getByRole("button", { name: /^Open checkpoint v1/ })).toBeVisible();
  await expect(workspace.row(8)).toContainText("echo: Thanks! Is it a direct flight?");
  const requests = await fakeUpstream.requests();
  expect(requests.filter((request) => request.summary)).toHaveLength(1);
  await page.screenshot({ path: test.info().outputPath("recorder-3-checkpoint.png") });
});

test("the recorder shows an upstream 429 with its retry-after and retries; a budget stop makes no model call", async ({ page }) => {
  const conversationId = await createConversation(page, "recorder errors", {});
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  const recorder = page.getByRole("region", { name: "Chat recorder" });
  const composer = recorder.getByRole("textbox", { name: "User turn" });

  await fakeUpstream.enqueue({ kind: "error", status: 429, headers: { "retry-after": "2" } });
  await composer.fill("Cancel 8JX2WO.");
  await composer.press("Enter");
  const alert = recorder.getByRole("alert");
  await expect(alert).toContainText("The upstream answered 429 (rate_limit_exceeded): Rate limit reached");
  await expect(alert).toContainText(/Retry in [12] s\./);
  const retry = alert.getByRole("button", { name: "Retry" });
  await expect(retry).toBeDisabled();
  await expect(workspace.row(1)).toContainText("Cancel 8JX2WO.");
  await page.screenshot({ path: test.info().outputPath("recorder-4-rate-limited.png") });
  await expect(retry).toBeEnabled({ timeout: 5_000 });
  await retry.click();
  await expect(recorder.getByRole("log", { name: "Assistant reply" })).toContainText("echo: Cancel 8JX2WO.");
  await expect(workspace.row(2)).toContainText("echo: Cancel 8JX2WO.");

  // A budget of 20 tokens cannot hold the next turn: the deterministic stop, and the upstream is not called.
  const patched = await page.request.patch(`/api/conversations/${conversationId}`, { data: { settings: { tokenBudget: 20 } } });
  expect(patched.ok()).toBe(true);
  const before = (await fakeUpstream.requests()).length;
  await page.reload();
  await workspace.ready();
  await composer.fill("Please list every fee that applies to my reservation, one by one, with the amounts.");
  await composer.press("Enter");
  const stop = recorder.getByRole("alert", { name: "Budget stop" });
  await expect(stop).toContainText("Budget stop: nothing was sent.");
  await expect(stop).toContainText("over the limit of 20");
  expect((await fakeUpstream.requests()).length).toBe(before);
  await page.screenshot({ path: test.info().outputPath("recorder-5-budget-stop.png") });
});
