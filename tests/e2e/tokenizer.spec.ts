import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

test("choosing a model that counts with another encoding shows the tokenizer loading, then the run on it", async ({ page, context, request }) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[0]), "tokenizer");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  const status = workspace.status;
  // The worker fetches the other encoding's ranks only now: held back a moment, so the state can be seen.
  let held = 0;
  await context.route(/\/_next\/static\/.*\.js$/, async (route) => {
    held += 1;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  const model = page.getByRole("combobox", { name: "Model", exact: true });
  await model.fill("gpt-4");
  await expect(status).toHaveText(/Loading the cl100k_base tokenizer…/);
  await expect(status).toHaveText(/Run \d+/, { timeout: 30_000 });
  expect(held).toBeGreaterThan(0);
  await expect(page.getByText(/Counts are exact \(cl100k_base\)/)).toBeVisible();
});
