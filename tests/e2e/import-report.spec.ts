import { expect, test } from "@playwright/test";
import { HomePage } from "./pages/home";
import { WorkspacePage } from "./pages/workspace";
import { fixtureText } from "./support/fixtures";

test("an import with an orphan tool result reports it, naming the message and linking to it in the workspace", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  // tau-bench task 12 without the assistant call before the tool result at message 6 (tests/fixtures/README.md).
  await home.conversation.fill(fixtureText("import/orphan-tool-result.json"));
  await home.importAndOpen.click();
  const report = page.getByRole("region", { name: "Import report" });
  await expect(report).toContainText("Read as OpenAI chat messages");
  await expect(report.getByRole("heading", { name: "Dropped" })).toBeVisible();
  const item = report
    .getByRole("listitem")
    .filter({ hasText: "tool result 'call_Mxn2CmKacuvxn7cEyJA5chIF' has no assistant tool call right before it; dropped" });
  await expect(item).toHaveCount(1);
  const link = item.getByRole("link", { name: "message 6" });
  await expect(link).toHaveAttribute("href", /^\/c\/[^/?]+\?message=6$/);
  await link.click();
  const workspace = new WorkspacePage(page);
  await workspace.ready();
  await expect(workspace.row(6)).toHaveAttribute("aria-current", "true");
});
