import fs from "node:fs";
import path from "node:path";
import { expect, test, type Locator } from "@playwright/test";
import { HomePage } from "./pages/home";

const TRAJECTORIES = path.join(import.meta.dirname, "..", "fixtures", "tau-bench-gpt4o-airline.json");

/** Whether `upper` ends above where `lower` starts on the page. */
async function isAbove(upper: Locator, lower: Locator): Promise<boolean> {
  const [a, b] = [await upper.boundingBox(), await lower.boundingBox()];
  return a !== null && b !== null && a.y + a.height <= b.y;
}

test("[IM-14] the 200-trajectory file is sent from disk with its progress shown, and its 200 conversations are reported", async ({ page }) => {
  test.setTimeout(180_000);
  const home = new HomePage(page);
  await home.goto();
  // A slow link, so the upload lasts long enough to be watched: 4 MB at 1 MB/s.
  const network = await page.context().newCDPSession(page);
  await network.send("Network.enable");
  await network.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
  await home.fileInput.setInputFiles(TRAJECTORIES);
  await expect(page.getByText(/too large to show here/)).toContainText("tau-bench-gpt4o-airline.json (3.9 MB) is ready");
  await expect(page.getByRole("textbox", { name: /^Conversation \(/ })).toHaveCount(0);
  await home.importAndOpen.click();

  const progress = page.getByRole("progressbar", { name: "Upload progress" });
  await expect(progress).toBeVisible();
  // The bar moves while the file goes out: the page renders between the upload's progress events.
  const seen = new Set<string>();
  await expect
    .poll(async () => {
      const value = await progress.getAttribute("value").catch(() => null);
      if (value !== null) seen.add(value);
      return seen.size;
    })
    .toBeGreaterThanOrEqual(3);
  await page.screenshot({ path: test.info().outputPath("large-import-progress.png") });
  await expect(page.getByRole("status").filter({ hasText: "Sent; saving…" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "Import report" })).toBeVisible({ timeout: 120_000 });
  await expect(page.getByText("200 conversations created.")).toBeVisible();
  await expect(progress).toHaveCount(0);
});

test("[IM-14] Run pipeline on a large file reads it in the worker and shows the first of its conversations", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  await home.fileInput.setInputFiles(TRAJECTORIES);
  await page.getByRole("button", { name: "Run pipeline" }).click();
  const result = page.getByRole("region", { name: "Result" });
  await expect(result).toContainText("(the first of 200 conversations in the input)", { timeout: 60_000 });
  await expect(page.getByText(/too large to show here/)).toBeVisible();
});

test("[IM-14] a refused import shows at the top of the box, in view, for text and for a file too large", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  await home.conversation.fill('[{"role": "user", "content": "hi"},, ]');
  await home.importAndOpen.click();
  await expect(home.error).toBeInViewport();
  expect(await isAbove(home.error, home.conversation)).toBe(true);

  const tooLarge = test.info().outputPath("too-large.json");
  fs.writeFileSync(tooLarge, `[${'{"role": "user", "content": "padding"},'.repeat(560_000)}{"role": "user", "content": "end"}]`);
  await home.fileInput.setInputFiles(tooLarge);
  const notice = page.getByText(/too large to show here/);
  await expect(notice).toBeVisible();
  await home.importAndOpen.click();
  await expect(home.error).toContainText("over the 20 MB limit");
  await expect(home.error).toBeInViewport();
  expect(await isAbove(home.error, notice)).toBe(true);
  await page.screenshot({ path: test.info().outputPath("refused-too-large.png") });
});

test("[IM-14] [SE-5] a refused session file shows above the session button, in view", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const home = new HomePage(page);
  await home.goto();
  const cut = test.info().outputPath("cut.session.jsonl");
  fs.writeFileSync(cut, `${JSON.stringify({ kind: "context-lab-session", version: 2, exportedAt: new Date().toISOString(), requests: "delta" })}\n`);
  const button = page.getByText("Import a session file");
  await page.getByLabel("Import a session file").setInputFiles(cut);
  const alert = page.getByRole("alert", { name: "Session import error" });
  await expect(alert).toContainText("the file has no conversation line");
  await expect(alert).toBeInViewport();
  expect(await isAbove(alert, button)).toBe(true);
});
