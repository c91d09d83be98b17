import { expect, test } from "@playwright/test";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { WorkspacePage } from "./pages/workspace";
import { fakeUpstream } from "./support/fake-upstream";

test.beforeEach(() => fakeUpstream.reset());

test("[P-SP1] [P-SP2] an agent whose system prompt carries a clock records one conversation, marked live where the prompt changed with the diff", async ({
  page,
  request,
  baseURL,
}) => {
  const label = `clock-${Date.now()}`;
  const agent = new OpenAI({ baseURL: `${baseURL}/api/v1`, apiKey: `ctxlab-${label}`, maxRetries: 0 });
  const turns: ChatCompletionMessageParam[] = [];
  async function ask(minute: number, question: string) {
    turns.push({ role: "user", content: question });
    const system = `You plan trips for the user.\nCurrent time: 20:${minute}`;
    const answer = await agent.chat.completions.create({ model: "fake-gpt", messages: [{ role: "system", content: system }, ...turns] });
    turns.push({ role: "assistant", content: answer.choices[0].message.content });
  }

  await ask(10, "Plan a day in Lyon.");
  // The call is placed just after its answer: the conversation is listed once it is.
  let recorded: { id: string; recordKey: string | null }[] = [];
  await expect
    .poll(async () => {
      const listed = await request.get("/api/conversations");
      const { conversations } = (await listed.json()) as { conversations: { id: string; recordKey: string | null }[] };
      recorded = conversations.filter((conversation) => conversation.recordKey?.startsWith(label));
      return recorded.map((conversation) => conversation.recordKey);
    })
    .toEqual([label]);

  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${recorded[0].id}`);
  await workspace.ready();
  await expect(workspace.row(2)).toContainText("echo: Plan a day in Lyon.");
  // Anything that reloads the page loses this: the later turns and the marker arrive live.
  await page.evaluate(() => ((window as unknown as { liveMarker: string }).liveMarker = "still here"));

  await ask(10, "And the evening?");
  await ask(14, "Where should we eat?");
  await expect(workspace.row(6)).toContainText("echo: Where should we eat?");
  // The clock moved once, before the third question: one marker, before the first turn sent with the new prompt.
  const marker = page.getByRole("note", { name: "System prompt changed" });
  await expect(marker).toHaveCount(1);
  await expect(workspace.loaded.locator('[data-index="5"]').getByRole("note", { name: "System prompt changed" })).toBeVisible();
  await marker.getByText("System prompt changed").click();
  await expect(marker.locator("del")).toHaveText("10");
  await expect(marker.locator("ins")).toHaveText("14");
  await page.screenshot({ path: test.info().outputPath("system-prompt-changed.png") });
  expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe("still here");
  // Still one conversation under the agent's key.
  const after = (await (await request.get("/api/conversations")).json()) as { conversations: { recordKey: string | null }[] };
  expect(after.conversations.filter((conversation) => conversation.recordKey?.startsWith(label))).toHaveLength(1);
});
