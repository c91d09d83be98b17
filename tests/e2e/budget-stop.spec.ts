import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { fakeUpstream } from "./support/fake-upstream";
import { importConversation, tauBench } from "./support/fixtures";

test.beforeEach(() => fakeUpstream.reset());

const TURN = "Please also tell me every baggage rule that applies to my reservation.";

test("[CT4] a budget that forces a stop: the budget bar, the header, the Prompt tab and the recorder say the same, and nothing reaches the model", async ({
  page,
  request,
}) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[2]), "budget stop");
  const patched = await request.patch(`/api/conversations/${conversationId}`, { data: { settings: { tokenBudget: 500 } } });
  expect(patched.ok()).toBe(true);
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}?tab=prompt`);
  await workspace.ready();

  // The next turn typed in the Prompt tab: every view now shows the request the recorder will try to send.
  await page.getByRole("textbox", { name: "Next user turn" }).fill(TURN);
  const promptStatus = page.getByRole("tabpanel").getByRole("status").first();
  await expect(promptStatus).toContainText("Over budget: nothing is sent");
  const needs = Number(/the request needs (\d+) tokens/.exec(await promptStatus.innerText())?.[1]);
  expect(needs).toBeGreaterThan(500);

  const header = page.getByRole("region", { name: "Conversation" }).getByLabel("Conversation totals");
  await expect(header).toContainText(`nothing sent: needs ${needs.toLocaleString("en")}, limit 500`);

  await workspace.tab("Pipeline").click();
  const budget = page.getByRole("region", { name: "Token budget" });
  await expect(budget.getByRole("status")).toContainText("Over budget: nothing would be sent.");
  await expect(budget.getByRole("status")).toContainText(`the request needs ${needs} tokens`);
  // CT4: nothing is sent, so nothing is free under the budget and nothing shows as dropped to fit.
  const free = budget.getByRole("list", { name: "Context window split" }).locator('li[data-segment="free"]');
  await expect(free).toContainText(/Free\s*0\s*0(\.0)?%/);
  await expect(budget).not.toContainText("dropped");
  await page.screenshot({ path: test.info().outputPath("budget-stop-views.png") });

  const recorder = page.getByRole("region", { name: "Chat recorder" });
  const composer = recorder.getByRole("textbox", { name: "User turn" });
  await composer.fill(TURN);
  await composer.press("Enter");
  const stop = recorder.getByRole("alert", { name: "Budget stop" });
  await expect(stop).toContainText(`Budget stop: nothing was sent. The request needs ${needs.toLocaleString("en")} tokens, over the limit of 500.`);
  await page.screenshot({ path: test.info().outputPath("budget-stop-recorder.png") });
  expect(await fakeUpstream.requests()).toHaveLength(0);
});
