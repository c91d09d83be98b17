import { expect, test } from "@playwright/test";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { WorkspacePage } from "./pages/workspace";
import { AIRLINE_SYSTEM, AIRLINE_TOOLS } from "./support/airline-agent";
import { fakeUpstream } from "./support/fake-upstream";

test.beforeEach(() => fakeUpstream.reset());

test("an agent's 429 and its retry are both in the calls view, with the error, the token chart and the diff between two calls; the conversation marks the failure", async ({
  page,
  request,
  baseURL,
}) => {
  const created = await request.post("/api/conversations", { data: { title: "rate limited agent", messages: [{ role: "system", content: AIRLINE_SYSTEM }] } });
  expect(created.ok()).toBe(true);
  const { conversation } = (await created.json()) as { conversation: { id: string } };

  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversation.id}?tab=calls`);
  await workspace.ready();
  await expect(page.getByRole("heading", { name: "No model calls recorded" })).toBeVisible();

  // The agent: the official client, which retries a 429 once by itself.
  const agent = new OpenAI({
    baseURL: `${baseURL}/api/v1`,
    apiKey: "ctxlab-e2e-calls",
    maxRetries: 1,
    defaultHeaders: { "X-Context-Lab-Conversation": conversation.id },
  });
  const history: ChatCompletionMessageParam[] = [
    { role: "system", content: AIRLINE_SYSTEM },
    { role: "user", content: "Where does reservation 8JX2WO go?" },
  ];
  await fakeUpstream.enqueue(
    {
      kind: "error",
      status: 429,
      headers: { "retry-after": "0" },
      body: {
        error: {
          message: "Rate limit reached for gpt-4o in organization org-e2e on tokens per min.",
          type: "tokens",
          code: "rate_limit_exceeded",
          param: null,
        },
      },
    },
    { content: "Reservation 8JX2WO flies from Boston to Seattle." },
  );
  const answer = await agent.chat.completions.create({ model: "gpt-4o", messages: history, tools: AIRLINE_TOOLS });
  expect(answer.choices[0].message.content).toBe("Reservation 8JX2WO flies from Boston to Seattle.");
  expect((await fakeUpstream.requests()).filter((seen) => seen.path.endsWith("/chat/completions"))).toHaveLength(2);

  // The next turn: the default fake echoes it.
  history.push({ role: "assistant", content: answer.choices[0].message.content }, { role: "user", content: "Is it a direct flight?" });
  await agent.chat.completions.create({ model: "gpt-4o", messages: history, tools: AIRLINE_TOOLS });

  // Every call, in order, appears live.
  const table = page.getByRole("table", { name: "Model calls" });
  const rows = table.getByRole("row");
  await expect(rows).toHaveCount(4);
  await expect(table.getByRole("row", { name: /^Call 1, gpt-4o, failed with 429: Rate limit reached for gpt-4o/ })).toBeVisible();
  await expect(rows.nth(1)).toContainText("Rate limit reached for gpt-4o in organization org-e2e");
  await expect(rows.nth(1)).toContainText("retry after 0 s");
  await expect(rows.nth(2)).toContainText("retry 1");
  await expect(rows.nth(2)).toContainText("200");
  await expect(rows.nth(3)).toContainText("Chat Completions");
  await expect(page.getByLabel("Calls summary")).toContainText("1 failed");

  // The chart: a stacked bar per call, history growing on the third.
  const chart = page.getByRole("figure", { name: "Input tokens per call" });
  const bars = chart.getByRole("button");
  await expect(bars).toHaveCount(3);
  await expect(bars.nth(0)).toHaveAttribute("aria-label", /^Call 1 \(failed\): [\d,]+ input tokens: system [\d,]+, tools [\d,]+, history 0, new turns [\d,]+$/);
  await expect(bars.nth(2)).toHaveAttribute("aria-label", /history [1-9][\d,]*, new turns [1-9]/);

  // The conversation shows the 429 where it was made: before the answer its retry brought.
  const conversationView = page.getByRole("region", { name: "Conversation" });
  const marker = conversationView.getByRole("note", { name: "Failed call: 429" });
  await expect(marker).toBeVisible();
  await expect(marker).toContainText("Rate limit reached for gpt-4o");
  await expect(workspace.row(2)).toContainText("from Boston to Seattle");
  await page.screenshot({ path: test.info().outputPath("calls-1-list.png") });

  // One click on the third bar: what it sent against the call before it.
  await bars.nth(2).click();
  const detail = page.getByRole("region", { name: "Call 3 details" });
  const diff = detail.getByRole("region", { name: "Changes from call 2 to call 3" });
  await expect(diff.getByLabel("Diff summary")).toContainText("0 removed");
  await expect(diff.getByLabel("Diff summary")).toContainText("2 added");
  await expect(diff.getByRole("listitem", { name: /^added user message/ })).toContainText("Is it a direct flight?");
  await expect(diff.getByRole("listitem", { name: /^added assistant message/ })).toContainText("from Boston to Seattle");
  await detail.getByText("Request as the agent sent it", { exact: true }).click();
  await expect(detail.getByLabel("Request as the agent sent it", { exact: true })).toContainText('"content": "Is it a direct flight?"');
  await page.screenshot({ path: test.info().outputPath("calls-2-diff.png") });

  // The 429's own detail: the retry sent the same messages, and the error as recorded.
  await page.getByRole("button", { name: "Open call 2" }).click();
  const retried = page.getByRole("region", { name: "Call 2 details" });
  await expect(retried.getByRole("region", { name: "Changes from call 1 to call 2" })).toContainText("It sent the same messages as call 1.");
  await page.getByRole("button", { name: "Open call 1" }).click();
  const failed = page.getByRole("region", { name: "Call 1 details" });
  await failed.getByText("Error", { exact: true }).click();
  await expect(failed.getByLabel("Error", { exact: true })).toContainText('"retry-after": "0"');
});
