import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

const turn = (index: number) => [
  { role: "user", content: `Follow-up question ${index}: what about my baggage allowance on reservation ${index}?` },
  { role: "assistant", content: `For reservation ${index}, each passenger in economy has one free checked bag.` },
];

test("checkpoint browser: two checkpoints of a branch, sortable, opened and diffed", async ({ page, request }) => {
  const { conversationId, branchId } = await importConversation(request, JSON.stringify(tauBench[2]), "checkpoints");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}?tab=checkpoints`);
  await workspace.ready();

  await page.getByRole("button", { name: "Checkpoint now" }).click();
  const table = page.getByRole("table", { name: "Checkpoints" });
  await expect(table.getByRole("row")).toHaveCount(2);

  // More rounds, then a second checkpoint.
  const appended = await request.post(`/api/branches/${branchId}/messages`, { data: { messages: [1, 2, 3, 4].flatMap(turn) } });
  expect(appended.ok()).toBe(true);
  await page.reload();
  await workspace.ready();
  await page.getByRole("button", { name: "Checkpoint now" }).click();
  await expect(table.getByRole("row")).toHaveCount(3);

  // Versions count per branch; read them from the table rather than assume where they start.
  const open = table.getByRole("button", { name: /^Open checkpoint v\d+/ });
  // The rows can be there a moment before their buttons: read the versions once both are.
  await expect(open).toHaveCount(2);
  const [first, second] = (await open.allInnerTexts()).map((text) => text.trim());
  await open.first().click();
  await expect(page.getByRole("region", { name: new RegExp(`^Checkpoint ${first} `) })).toBeVisible();
  await page.getByRole("checkbox", { name: new RegExp(`^Select ${first} .* for diff$`) }).check();
  await page.getByRole("checkbox", { name: new RegExp(`^Select ${second} .* for diff$`) }).check();
  const diff = page.getByRole("region", { name: new RegExp(`^Diff of ${first} .* and ${second} `) });
  await expect(diff).toBeVisible();
  await expect(diff.getByRole("table", { name: "Changed values" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("checkpoint-diff.png") });
});
