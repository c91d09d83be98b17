import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { CLAUDE_SESSION_ID, claudeTurn, createAgentHome, lastUuidOf, type AgentHome } from "../support/agent-home";
import { LocalAgentsPage } from "./pages/local-agents";
import { WorkspacePage } from "./pages/workspace";
import { agentsHome } from "./support/agents-home";

const sessionFile = `${CLAUDE_SESSION_ID}.jsonl`;
let home: AgentHome;

test.beforeAll(() => {
  fs.rmSync(agentsHome, { recursive: true, force: true });
  home = createAgentHome(agentsHome);
});
test.afterAll(() => home?.cleanup());

test("[LA1][LA5][LA6] a Claude Code session on this machine is listed, followed, and each turn the agent writes appears live", async ({ page }) => {
  const agents = new LocalAgentsPage(page);
  await page.goto("/");
  await page.getByRole("link", { name: "Local agents" }).click();
  await expect(page).toHaveURL(/\/agents$/);

  // LA1: the three agents' sessions, with the Claude Code one's project and model.
  const row = agents.row(sessionFile);
  await expect(row).toContainText("Claude Code");
  await expect(row).toContainText("spotter");
  await expect(row).toContainText("claude-opus-4-6");
  await expect(agents.table).toContainText("Codex");
  await expect(agents.table).toContainText("Gemini CLI");
  await page.screenshot({ path: test.info().outputPath("local-agents-1-list.png") });

  // Follow: imported, followed, opened.
  await agents.follow(sessionFile).click();
  await page.waitForURL(/\/c\/[^/?]+/);
  const workspace = new WorkspacePage(page);
  await workspace.ready();
  const following = page.getByRole("status", { name: "Following a session file" });
  await expect(following).toContainText(`Following ${sessionFile}`);
  await expect(workspace.loaded).toContainText("mix phx.server doesnt seem to start");
  // Anything that reloads the page loses this.
  await page.evaluate(() => ((window as unknown as { followMarker: string }).followMarker = "still here"));

  // LA5: the agent writes a user turn, then its answer; each appears without a reload.
  const user = claudeTurn({ role: "user", text: "Please run mix test for me", parentUuid: lastUuidOf(home.claudeSession) });
  fs.appendFileSync(home.claudeSession, user.line);
  await expect(workspace.loaded).toContainText("Please run mix test for me", { timeout: 10_000 });
  const answer = claudeTurn({ role: "assistant", text: "All 42 tests passed in 1.3 seconds.", parentUuid: user.uuid });
  // Half a line first: nothing shows until the agent finishes writing it.
  fs.appendFileSync(home.claudeSession, answer.line.slice(0, 60));
  await page.waitForTimeout(1_500);
  await expect(workspace.loaded).not.toContainText("All 42 tests passed");
  fs.appendFileSync(home.claudeSession, answer.line.slice(60));
  await expect(workspace.loaded).toContainText("All 42 tests passed in 1.3 seconds.", { timeout: 10_000 });
  expect(await page.evaluate(() => (window as unknown as { followMarker?: string }).followMarker)).toBe("still here");
  await page.screenshot({ path: test.info().outputPath("local-agents-2-followed.png") });

  // LA6: Stop ends the follow; the list no longer shows it as followed, and the row opens the conversation.
  await following.getByRole("button", { name: "Stop" }).click();
  await expect(following).toBeHidden();
  await agents.open();
  await expect(agents.row(sessionFile).getByRole("link", { name: `Open ${sessionFile}` })).toBeVisible();
  await expect(agents.row(sessionFile)).not.toContainText("following");
});
