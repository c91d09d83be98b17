import { expect, test } from "@playwright/test";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { WorkspacePage } from "./pages/workspace";
import { AIRLINE_SYSTEM, AIRLINE_TOOLS } from "./support/airline-agent";
import { fakeUpstream } from "./support/fake-upstream";

test.beforeEach(() => fakeUpstream.reset());

test("a scripted agent talks through the proxy; the open workspace shows each turn live, and a diverging request as a new branch", async ({
  page,
  request,
  baseURL,
}) => {
  const created = await request.post("/api/conversations", { data: { title: "live agent", messages: [{ role: "system", content: AIRLINE_SYSTEM }] } });
  expect(created.ok()).toBe(true);
  const { conversation } = (await created.json()) as { conversation: { id: string } };

  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversation.id}`);
  await workspace.ready();
  await expect(workspace.row(0)).toBeVisible();
  // Anything that reloads the page loses this.
  await page.evaluate(() => ((window as unknown as { liveMarker: string }).liveMarker = "still here"));

  // The agent: the official client, its base URL on Context Lab, the conversation named by header.
  const agent = new OpenAI({
    baseURL: `${baseURL}/api/v1`,
    apiKey: "ctxlab-e2e-agent",
    maxRetries: 0,
    defaultHeaders: { "X-Context-Lab-Conversation": conversation.id },
  });
  const history: ChatCompletionMessageParam[] = [
    { role: "system", content: AIRLINE_SYSTEM },
    { role: "user", content: "Where does reservation 8JX2WO go?" },
  ];

  // Turn 1, streamed: the model calls a tool.
  await fakeUpstream.enqueue({
    content: null,
    toolCalls: [{ id: "call_lookup_1", name: "get_reservation_details", arguments: '{"reservation_id":"8JX2WO"}' }],
    chunkDelayMs: 20,
  });
  const stream = await agent.chat.completions.create({ model: "fake-gpt", messages: history, tools: AIRLINE_TOOLS, stream: true });
  let argumentsText = "";
  for await (const chunk of stream) argumentsText += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? "";
  expect(argumentsText).toBe('{"reservation_id":"8JX2WO"}');
  await expect(workspace.row(1)).toContainText("Where does reservation 8JX2WO go?");
  // The call waits for its result: the view names it (as a pending call) rather than a row of its own.
  await expect(page.getByRole("region", { name: "Conversation" })).toContainText("call_lookup_1");
  await page.screenshot({ path: test.info().outputPath("live-1-tool-call.png") });

  // Turn 2, whole: the tool's result goes back, the model answers.
  history.push(
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_lookup_1", type: "function", function: { name: "get_reservation_details", arguments: '{"reservation_id":"8JX2WO"}' } }],
    },
    { role: "tool", tool_call_id: "call_lookup_1", content: '{"reservation_id":"8JX2WO","origin":"BOS","destination":"SEA"}' },
  );
  await fakeUpstream.enqueue({ content: "Reservation 8JX2WO flies from Boston to Seattle." });
  const answer = await agent.chat.completions.create({ model: "fake-gpt", messages: history, tools: AIRLINE_TOOLS });
  expect(answer.choices[0].message.content).toBe("Reservation 8JX2WO flies from Boston to Seattle.");
  await expect(workspace.row(2)).toContainText("get_reservation_details");
  await expect(workspace.row(3)).toContainText(/"destination": ?"SEA"/);
  await expect(workspace.row(4)).toContainText("from Boston to Seattle");

  // Turn 3: a follow-up; the default fake echoes it.
  history.push({ role: "assistant", content: answer.choices[0].message.content }, { role: "user", content: "Thanks! Is it a direct flight?" });
  const followUp = await agent.chat.completions.create({ model: "fake-gpt", messages: history, tools: AIRLINE_TOOLS, stream: true });
  for await (const chunk of followUp) void chunk;
  await expect(workspace.row(5)).toContainText("Is it a direct flight?");
  await expect(workspace.row(6)).toContainText("echo: Thanks! Is it a direct flight?");
  await expect(page.getByRole("group", { name: "History shown" }).getByRole("button", { name: /^Before/ })).toHaveText("Before · 7");
  await page.screenshot({ path: test.info().outputPath("live-2-three-turns.png") });

  // A request that rewrites the first user turn diverges at message 1: a new branch, forked there.
  await agent.chat.completions.create({
    model: "fake-gpt",
    messages: [
      { role: "system", content: AIRLINE_SYSTEM },
      { role: "user", content: "Cancel reservation 8JX2WO, please." },
    ],
    tools: AIRLINE_TOOLS,
  });
  await expect(workspace.branch.getByRole("option")).toHaveCount(2);
  await expect(workspace.branch).toBeEnabled();
  await workspace.tab("Branches").click();
  const panel = page.getByRole("tabpanel");
  await expect(panel).toContainText("main@1");
  await expect(panel).toContainText("forked at message 1");
  // The open branch kept its 7 messages.
  await expect(workspace.row(6)).toContainText("echo: Thanks! Is it a direct flight?");
  await page.screenshot({ path: test.info().outputPath("live-3-diverged.png") });
  // The new branch: the system prompt, the rewritten turn and its reply.
  await workspace.branch.selectOption({ label: (await workspace.branch.getByRole("option", { name: /main@1/ }).innerText()).trim() });
  await expect(workspace.row(1)).toContainText("Cancel reservation 8JX2WO, please.");
  await expect(workspace.row(2)).toContainText("echo: Cancel reservation 8JX2WO, please.");

  expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe("still here");
});
