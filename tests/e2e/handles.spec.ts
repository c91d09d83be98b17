import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

test("handle viewer: a small offload size offloads messages; each handle opens on its original and the reload exchange", async ({ page, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[0]), "handles");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  // The offloader acts past the mode's offload threshold: navigator's is 20 messages.
  await page.getByRole("radio", { name: /navigator/i }).check({ force: true });
  const size = page.getByRole("spinbutton", { name: "Message offload size" });
  await size.fill("400");
  await size.blur();
  await page.keyboard.press("2");
  await expect(workspace.tab("Handles")).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => workspace.search().get("tab")).toBe("handles");
  const table = page.getByRole("table", { name: "Offloaded handles" });
  const first = table.getByRole("button", { name: /^off_[0-9a-f]{12}$/ }).first();
  await expect(first).toBeVisible();
  const handle = await first.innerText();
  await first.click();
  const detail = page.getByRole("region", { name: `Handle ${handle}` });
  await expect(detail).toBeVisible();
  await expect(detail.getByLabel("Original content")).not.toBeEmpty();
  await expect(detail.getByLabel("Tool call")).toContainText("reload_offloaded");
  await page.screenshot({ path: test.info().outputPath("handle-viewer.png") });

  // From the handle to its message: the conversation selects it, and its chip opens the handle again.
  await detail.getByRole("button", { name: /^Show message #\d+$/ }).click();
  const chip = page.getByRole("button", { name: `Open offloaded handle ${handle}` });
  await expect(chip).toBeVisible();
  await page.keyboard.press("1");
  await chip.click();
  await expect(workspace.tab("Handles")).toHaveAttribute("aria-selected", "true");
  await expect(detail).toBeVisible();
});
