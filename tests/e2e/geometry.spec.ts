import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { ComparePage } from "./pages/compare";
import { WorkspacePage } from "./pages/workspace";
import { AIRLINE_SYSTEM } from "./support/airline-agent";
import { fakeUpstream } from "./support/fake-upstream";
import { importConversation, tauBench } from "./support/fixtures";
import { measureWorkspace } from "./support/geometry";

const SIZES = [
  { width: 1024, height: 768 },
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
];
const TABS = ["Pipeline", "Handles", "State", "Branches", "Checkpoints", "Prompt", "Calls", "Compare"];
const AGENT_CALLS = 200;
/** The Calls tab loads calls a hundred at a time. */
const CALLS_PAGE = 100;

/** A real tau-bench trajectory's turns repeated past 10,000 messages, imported through the API. */
async function longConversation(request: APIRequestContext): Promise<string> {
  const [system, ...turns] = tauBench[2].traj;
  const traj = [system];
  while (traj.length < 10_000) traj.push(...turns);
  const { conversationId } = await importConversation(request, JSON.stringify({ ...tauBench[2], traj }), "long conversation");
  return conversationId;
}

/** An agent recorded by the proxy: one call a turn, each answered by the fake upstream's echo; two long-named forks of it. */
async function recordedAgent(request: APIRequestContext): Promise<string> {
  const created = await request.post("/api/conversations", { data: { title: "recorded agent", messages: [{ role: "system", content: AIRLINE_SYSTEM }] } });
  expect(created.ok()).toBe(true);
  const { conversation, branch } = (await created.json()) as { conversation: { id: string }; branch: { id: string } };
  const messages: { role: string; content: string }[] = [{ role: "system", content: AIRLINE_SYSTEM }];
  for (let call = 0; call < AGENT_CALLS; call += 1) {
    messages.push({ role: "user", content: `Question ${call + 1}: which flights leave after reservation ${call} and what do they cost?` });
    const answer = await request.post("/api/v1/chat/completions", {
      headers: { authorization: "Bearer ctxlab-e2e-geometry", "x-context-lab-conversation": conversation.id },
      data: { model: "gpt-4o", messages },
    });
    expect(answer.ok()).toBe(true);
    const body = (await answer.json()) as { choices: { message: { content: string } }[] };
    messages.push({ role: "assistant", content: body.choices[0].message.content });
  }
  for (const [position, name] of [
    [5, "retry from question two with the observation masking policy and a shorter system prompt"],
    [15, "what if the agent had asked for the reservation number first"],
  ] as const) {
    const fork = await request.post(`/api/branches/${branch.id}/fork`, { data: { position, name } });
    expect(fork.ok(), await fork.text()).toBe(true);
  }
  return conversation.id;
}

/** Opens each tab at each size, checks the geometry (UI-G1…UI-G4) and saves a screenshot of each. */
async function checkEveryTab(page: Page, conversationId: string, name: string, prepare?: (tab: string) => Promise<void>) {
  const workspace = new WorkspacePage(page);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto(`/c/${conversationId}`);
    await workspace.ready();
    for (const tab of TABS) {
      await workspace.tab(tab).click();
      await expect(workspace.tab(tab)).toHaveAttribute("aria-selected", "true");
      await prepare?.(tab);
      // A wheel over the header must not move the page (UI-G1).
      await page.getByRole("banner").hover();
      await page.mouse.wheel(0, 2_000);
      const report = await measureWorkspace(page);
      const screenshot = test.info().outputPath(`${name}-${size.width}x${size.height}-${tab}.png`);
      await page.screenshot({ path: screenshot });
      await test.info().attach(`${name} at ${size.width}×${size.height}, ${tab}`, { path: screenshot, contentType: "image/png" });
      expect.soft(report, `${name} at ${size.width}×${size.height}, ${tab}`).toEqual({
        documentOverflow: { vertical: 0, horizontal: 0 },
        panels: [],
        overflowing: [],
        hiddenTabs: [],
      });
      expect.soft(await page.evaluate(() => window.scrollY), "the document never scrolls").toBe(0);
    }
  }
}

test.describe.configure({ timeout: 600_000 });
test.beforeEach(() => fakeUpstream.reset());

test("[UI-G1][UI-G2][UI-G3][UI-G4] a 10,000-message conversation fits the window at 1024, 1280 and 1440 on every tab", async ({ page, request }) => {
  const conversationId = await longConversation(request);
  await checkEveryTab(page, conversationId, "long");
});

test("[UI-G1][UI-G2][UI-G3][UI-G4] a 200-call proxy-recorded agent fits the window with its calls and a comparison shown", async ({ page, request }) => {
  const conversationId = await recordedAgent(request);
  const compare = new ComparePage(page);
  await checkEveryTab(page, conversationId, "agent", async (tab) => {
    if (tab === "Calls") await expect(page.getByRole("table", { name: "Model calls" }).getByRole("row")).toHaveCount(Math.min(AGENT_CALLS, CALLS_PAGE) + 1);
    if (tab !== "Compare") return;
    await compare.slot(1).selectOption({ label: "Current settings" });
    await compare.run();
    // A run's recall-risk evidence opens from the table's last column: the panel must not be left scrolled sideways.
    const evidence = compare.table.getByRole("button", { name: /recall risks of .*: show the evidence$/ });
    if ((await evidence.count()) > 0) await evidence.first().click();
  });
});

test("[UI-G6] /favicon.ico answers with the site's icon", async ({ request }) => {
  const response = await request.get("/favicon.ico");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
  // An ICO file: reserved 0, type 1 (icon), then its images.
  expect([...(await response.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
});
