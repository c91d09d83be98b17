import { expect, test } from "@playwright/test";
import { HomePage } from "./pages/home";
import { WorkspacePage } from "./pages/workspace";
import { fixtureText, tauBench } from "./support/fixtures";

test("an empty home offers the example, which opens as a workspace and is listed afterwards", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  await page.screenshot({ path: test.info().outputPath("home-empty.png"), fullPage: true });
  await home.loadExample.first().click();
  await expect(page).toHaveURL(/\/c\/[^/?]+\?branch=/);
  const workspace = new WorkspacePage(page);
  await workspace.ready();
  await expect(workspace.row(0)).toContainText("Airline Agent Policy");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("tau-bench airline task 2");
  await home.goto();
  await expect(home.savedConversation("tau-bench airline task 2").first()).toContainText("62 messages");
});

test("pasting a conversation saves it and opens its workspace on the root branch", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  await home.conversation.fill(JSON.stringify(tauBench[1].traj));
  await home.importAndOpen.click();
  await expect(page).toHaveURL(/\/c\/[^/?]+\?branch=/);
  const workspace = new WorkspacePage(page);
  await workspace.ready();
  await expect(page.getByLabel("Conversation totals")).toContainText(`${tauBench[1].traj.length} messages`);
  await page.screenshot({ path: test.info().outputPath("workspace-imported.png") });
});

test("bad input points at the line and field, keeps the text, and jumps to the line", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  const broken = '[\n  {"role": "user", "content": "hi"},\n  {"role": "tool", "content": "x"}\n]';
  await home.conversation.fill(broken);
  await home.importAndOpen.click();
  await expect(home.error).toContainText("line 3");
  await expect(home.error).toContainText("tool_call_id");
  await expect(home.conversation).toHaveValue(broken);
  await expect(page).toHaveURL(/\/$/);
  await home.error.getByRole("button", { name: "Show line 3 in the text" }).click();
  const selection = await home.conversation.evaluate((element: HTMLTextAreaElement) => element.value.slice(element.selectionStart, element.selectionEnd));
  expect(selection).toContain('"role": "tool"');
  await page.screenshot({ path: test.info().outputPath("import-error.png") });
});

test("[UI-I1] Show line scrolls to the line as laid out when long lines wrap above it", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  const long = "The passenger asks again about the fare rules of the return flight and the baggage allowance. ".repeat(4);
  const lines = ["[", ...Array.from({ length: 40 }, () => `  {"role": "user", "content": "${long}"},`), '  {"role": "tool", "content": "x"}', "]"];
  await home.conversation.fill(lines.join("\n"));
  await home.importAndOpen.click();
  await home.error.getByRole("button", { name: "Show line 42 in the text" }).click();
  const place = await home.conversation.evaluate((area: HTMLTextAreaElement) => {
    // A copy of the box holding the text up to the line: its height ends with the line's first row.
    const copy = area.cloneNode() as HTMLTextAreaElement;
    copy.value = area.value.slice(0, area.selectionStart);
    copy.style.height = "0";
    copy.style.minHeight = "0";
    area.parentElement!.append(copy);
    const style = getComputedStyle(area);
    const lineHeight = Number.parseFloat(style.lineHeight);
    const lineTop = copy.scrollHeight - Number.parseFloat(style.paddingBottom) - lineHeight;
    copy.remove();
    return { lineTop, lineHeight, scrollTop: area.scrollTop, height: area.clientHeight, selected: area.value.slice(area.selectionStart, area.selectionEnd) };
  });
  expect(place.selected).toBe('{"role": "tool", "content": "x"}');
  // The lines above wrap: counting them as one row each would land far above.
  expect(place.lineTop).toBeGreaterThan(60 * place.lineHeight);
  expect(place.lineTop).toBeGreaterThanOrEqual(place.scrollTop);
  expect(place.lineTop + place.lineHeight).toBeLessThanOrEqual(place.scrollTop + place.height);
  await page.screenshot({ path: test.info().outputPath("import-show-line-wrapped.png") });
});

test("dropping a file loads it into the box; an Anthropic request imports with its tools", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  const text = fixtureText("import/anthropic-task-41.json");
  await home.dropFile("anthropic-task-41.json", text);
  await expect(home.conversation).toHaveValue(text);
  await expect(page.getByText("anthropic-task-41.json")).toBeVisible();
  await home.importAndOpen.click();
  const workspace = new WorkspacePage(page);
  await workspace.ready();
  await expect(workspace.row(1)).toBeVisible();
});

test("a dropped file with broken JSON shows the syntax error's line and keeps the text", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  const text = fixtureText("import/malformed-missing-comma.json");
  await home.dropFile("malformed-missing-comma.json", text);
  await home.importAndOpen.click();
  await expect(home.error).toContainText(/line \d+/);
  await expect(home.conversation).toHaveValue(text);
});

test("offload markers of other engines show as handle chips", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  await home.conversation.fill(fixtureText("import/exo-offload.json"));
  await home.importAndOpen.click();
  const workspace = new WorkspacePage(page);
  await workspace.ready();
  const chips = page.getByRole("button", { name: /Exo offload handle/ });
  await expect(chips.first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("offload-markers.png") });
});

test("a saved conversation is deleted from the list after confirmation", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  await home.conversation.fill(JSON.stringify(tauBench[5].traj));
  await home.importAndOpen.click();
  await expect(page).toHaveURL(/\/c\//);
  await home.goto();
  const items = home.saved.getByRole("listitem");
  const before = await items.count();
  page.once("dialog", (dialog) => void dialog.accept());
  await items
    .first()
    .getByRole("button", { name: /^Delete/ })
    .click();
  await expect(items).toHaveCount(before - 1);
  await page.reload();
  await expect(home.saved.getByRole("listitem").or(home.loadExample).first()).toBeVisible();
  await expect(home.saved.getByRole("listitem")).toHaveCount(before - 1);
});

test("an unknown conversation id says so and links home", async ({ page }) => {
  await page.goto("/c/no-such-conversation");
  await expect(page.getByRole("heading", { name: "Conversation not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the conversations" }).click();
  await expect(page).toHaveURL(/\/$/);
});
