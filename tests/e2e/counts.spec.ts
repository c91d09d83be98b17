import { expect, type Locator, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

const numberIn = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1]?.replace(/,/g, "") ?? Number.NaN);

/** The run number the header shows ("Run 3 · 12 ms"). */
async function runNumber(workspace: WorkspacePage): Promise<number> {
  return numberIn(await workspace.status.innerText(), /Run (\d+)/);
}

/** Sets the model and waits for the one run it causes to be shown: whatever is read next is what that run brought. Nothing to wait for when it is already set. */
async function chooseModel(workspace: WorkspacePage, model: string): Promise<void> {
  const field = workspace.page.getByRole("combobox", { name: "Model", exact: true });
  if ((await field.inputValue()) === model) return;
  const before = await runNumber(workspace);
  await field.fill(model);
  await expect(workspace.status).toHaveText(new RegExp(`Run (?!${before}\\b)\\d+`), { timeout: 30_000 });
}

/** The per-message count of the first loaded message ("1,234 tok", "≈1,234 tok"). */
function messageCount(workspace: WorkspacePage): Locator {
  return workspace.row(0).getByText(/^≈?[\d,]+ tok$/);
}

test("[CT1][CT2][CT3] a model change recounts every count with its one run, ≈ marks an approximate tokenizer, and the toolbar, trace and Prompt tab show one total", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[0]), "counts");
  const workspace = new WorkspacePage(page);
  await page.goto(`/c/${conversationId}`);
  await workspace.ready();
  const totals = page.getByRole("region", { name: "Conversation" }).getByLabel("Conversation totals");
  await chooseModel(workspace, "gpt-4o");
  const o200k = { loaded: numberIn(await totals.innerText(), /([\d,]+) tokens →/), message: await messageCount(workspace).innerText() };

  // gpt-4 counts with cl100k_base: once its run is shown, the counts are its, not the old encoding's (no reload, no waiting on a refresh).
  await chooseModel(workspace, "gpt-4");
  const cl100k = { loaded: numberIn(await totals.innerText(), /([\d,]+) tokens →/), message: await messageCount(workspace).innerText() };
  expect(cl100k.loaded).not.toBe(o200k.loaded);
  expect(cl100k.message).not.toBe(o200k.message);
  expect(cl100k.message).not.toContain("≈");

  // The toolbar says how the total is made, the reply priming a term of its own.
  const toolbar = await totals.innerText();
  expect(toolbar).toMatch(/→ [\d,]+ in messages \+ 3 reply priming( \+ [\d,]+ in tool definitions)? = [\d,]+ sent/);
  const sent = numberIn(toolbar, /= ([\d,]+) sent/);

  await workspace.tab("Pipeline").click();
  const sentRow = workspace.trace.getByRole("row", { name: /^Sent/ });
  await expect(sentRow.getByRole("cell").nth(1)).toHaveText(sent.toLocaleString("en"));
  await expect(sentRow).toContainText("3 reply priming");

  await workspace.tab("Prompt").click();
  const tabpanel = page.getByRole("tabpanel");
  await expect(tabpanel.getByText(/^[\d,]+ in messages \+ 3 reply priming/)).toContainText(`= ${sent.toLocaleString("en")}`);
  await expect(page.getByRole("list", { name: "Prompt sections" }).locator('[data-kind="priming"]')).toContainText("Reply priming");

  // A Claude model: its tokenizer is not public, so every count shown is approximate.
  await workspace.tab("Pipeline").click();
  await chooseModel(workspace, "claude-sonnet-4-5");
  expect(await messageCount(workspace).innerText()).toMatch(/^≈/);
  expect(await totals.innerText()).toMatch(/≈ [\d,]+ tokens → ≈ [\d,]+ in messages/);
  expect(await workspace.trace.getByRole("row", { name: /^Sent/ }).getByRole("cell").nth(1).innerText()).toMatch(/^≈ [\d,]+$/);
  await expect(page.getByRole("region", { name: "Token budget" }).getByRole("list", { name: "Context window split" })).toContainText("≈");
  await workspace.tab("Prompt").click();
  await expect(
    page
      .getByRole("list", { name: "Prompt sections" })
      .getByText(/^≈ [\d,]+$/)
      .first(),
  ).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("counts-approximate.png") });
});
