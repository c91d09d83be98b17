import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

test("keyboard: j/k select, b flips before/after, [ ] walk the trace, 1 opens a panel, ? shows the sheet", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[0]), "keys");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();

  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await expect(workspace.row(1)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("k");
  await expect(workspace.row(0)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("G");
  await expect(workspace.row(tauBench[0].traj.length - 1)).toHaveAttribute("aria-current", "true");

  await page.keyboard.press("b");
  await expect(workspace.processed).toBeVisible();
  expect(workspace.search().get("view")).toBe("after");
  await page.keyboard.press("b");
  await expect(workspace.loaded).toBeVisible();

  await page.keyboard.press("]");
  await expect.poll(() => workspace.search().get("step")).toBe("0");
  await page.keyboard.press("]");
  await expect.poll(() => workspace.search().get("step")).toBe("1");
  await page.keyboard.press("[");
  await expect.poll(() => workspace.search().get("step")).toBe("0");

  await page.keyboard.press("1");
  await expect(workspace.tab("Pipeline")).toHaveAttribute("aria-selected", "true");

  await page.keyboard.press("?");
  await expect(workspace.shortcutsSheet).toBeVisible();
  await expect(workspace.shortcutsSheet).toContainText("Fork a branch after the selected message");
  await page.screenshot({ path: test.info().outputPath("shortcuts-sheet.png") });
  await page.keyboard.press("Escape");
  await expect(workspace.shortcutsSheet).toBeHidden();

  // Typing in a field is not a shortcut.
  await page.getByRole("spinbutton", { name: "History rounds" }).focus();
  await page.keyboard.press("b");
  await expect(workspace.loaded).toBeVisible();
});

test("theme: t and the toggle switch light and dark, persisted across reloads without a flash", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[5]), "theme");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  const initial = await workspace.currentTheme();
  const other = initial === "dark" ? "light" : "dark";
  await page.keyboard.press("t");
  await expect.poll(() => workspace.currentTheme()).toBe(other);
  await page.screenshot({ path: test.info().outputPath(`theme-${other}.png`) });

  // The boot script sets the theme before the body is parsed, so before any paint or React code.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.body) return;
      (window as unknown as { themeAtBody: string | null }).themeAtBody = document.documentElement.dataset.theme ?? null;
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.reload();
  await workspace.ready();
  expect(await page.evaluate(() => (window as unknown as { themeAtBody: string | null }).themeAtBody)).toBe(other);

  await page.getByRole("button", { name: `Switch to ${initial} theme` }).click();
  await expect.poll(() => workspace.currentTheme()).toBe(initial);
  await page.goto("/");
  await expect.poll(() => workspace.currentTheme()).toBe(initial);
  // The boot script sets the theme before the home page hydrates; a key pressed before then has no listener yet.
  // Pressed again until it lands: the listener switches synchronously, so a press that landed shows at once.
  await expect(async () => {
    await page.keyboard.press("t");
    expect(await workspace.currentTheme()).toBe(other);
  }).toPass({ timeout: 15_000 });
  await page.screenshot({ path: test.info().outputPath(`home-${other}.png`), fullPage: true });
});

test("the URL restores branch, tab, step and view on reload", async ({ page, request }) => {
  const { conversationId, branchId } = await importConversation(request, JSON.stringify(tauBench[0]), "url");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}?branch=${branchId}&step=2&view=after`);
  await workspace.ready();
  await expect(workspace.processed).toBeVisible();
  await expect(workspace.after).toHaveAttribute("aria-pressed", "true");
  expect(workspace.search().get("step")).toBe("2");
  expect(workspace.search().get("branch")).toBe(branchId);
});
