import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

test("prompt preview: the assembled next prompt in sections with tokens, and the next user turn added", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[2]), "prompt");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  await page.keyboard.press("6");
  await expect(workspace.tab("Prompt")).toHaveAttribute("aria-selected", "true");
  const sections = page.getByRole("list", { name: "Prompt sections" });
  await expect(sections.getByRole("listitem").first()).toBeVisible();
  await expect(sections).toContainText(/tokens|\d/);
  const before = await sections.innerText();
  await page.getByRole("textbox", { name: "Next user turn" }).fill("Can I get a refund for the cancelled flight?");
  await expect.poll(() => sections.innerText(), { timeout: 10_000 }).not.toBe(before);
  await page.screenshot({ path: test.info().outputPath("prompt-preview.png") });
});
