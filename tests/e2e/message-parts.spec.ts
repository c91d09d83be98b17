import { expect, test } from "@playwright/test";
import { HomePage } from "./pages/home";
import { WorkspacePage } from "./pages/workspace";
import { fixtureText } from "./support/fixtures";

test("a pasted Anthropic conversation keeps thinking, images, documents, server tools and cache marks, and is titled by its words", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  await home.conversation.fill(fixtureText("formats/anthropic-thinking-image-document.json"));
  await home.importAndOpen.click();
  // The orphan tool result at the end is dropped, and the import report says so before the conversation opens.
  const report = page.getByRole("region", { name: "Import report" });
  await expect(report).toContainText("Read as Anthropic Messages");
  const dropped = report.getByRole("listitem").filter({ hasText: "tool result 'toolu_missing' has no assistant tool call right before it; dropped" });
  await expect(dropped).toHaveCount(1);
  await dropped.getByRole("link", { name: "message 5" }).click();
  const workspace = new WorkspacePage(page);
  // The first run loads the model's encoding (o200k for this Claude request), slower than the sample's on a busy machine.
  await expect(workspace.status).toContainText(/Run \d+/, { timeout: 60_000 });
  await expect(page.getByRole("heading", { level: 1 })).toContainText("What's the weather in Paris");
  const user = workspace.row(1);
  await expect(user.getByRole("img", { name: "image 1×1" })).toBeVisible();
  await expect(workspace.row(3)).toContainText("Current temperature: 88°F");
  await expect(user).toContainText("document · contract.pdf");
  await expect(user.getByTitle("Prompt-cache breakpoint after this document")).toBeVisible();
  const assistant = workspace.row(2);
  const thinking = assistant.locator("details").filter({ hasText: /^Thinking/ });
  await expect(thinking).not.toHaveAttribute("open", "");
  await thinking.locator("summary").click();
  await expect(thinking).toContainText("I have access to get_weather");
  await expect(assistant).toContainText("Redacted thinking");
  await expect(workspace.row(4)).toContainText("server_tool_use · web_search");
  await page.screenshot({ path: test.info().outputPath("message-parts.png") });
});
