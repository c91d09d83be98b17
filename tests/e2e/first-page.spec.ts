import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { PasteInspectorPage } from "./pages/paste-inspector";

const sample = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "fixtures", "tau-bench-airline-sample.json"), "utf8")) as { traj: unknown[] }[];

test("pasting a real conversation runs the pipeline in the browser and shows the trace", async ({ page }) => {
  const inspector = new PasteInspectorPage(page);
  await inspector.goto();
  await inspector.paste(JSON.stringify(sample[0].traj));
  await inspector.mode.selectOption("navigator");
  await inspector.budget.fill("3000");
  await inspector.run.click();

  await expect(inspector.trace).toBeVisible();
  for (const processor of ["message_offloader", "dialogue_compressor", "round_window", "summarize", "token_budget"]) {
    await expect(inspector.traceRow(processor)).toBeVisible();
  }
  // The compressor folds closed tool chains: fewer messages and tokens after it than before.
  const compressor = inspector.traceRow("dialogue_compressor");
  const [messages, tokens] = await Promise.all([compressor.getByRole("cell").nth(0).innerText(), compressor.getByRole("cell").nth(1).innerText()]);
  const [messagesBefore, messagesAfter] = messages.split("→").map((part) => Number(part.replace(/\D/g, "")));
  const [tokensBefore, tokensAfter] = tokens.split("→").map((part) => Number(part.replace(/\D/g, "")));
  expect(messagesBefore).toBe(sample[0].traj.length);
  expect(messagesAfter).toBeLessThan(messagesBefore);
  expect(tokensAfter).toBeLessThan(tokensBefore);
  await expect(inspector.processedHistory.getByRole("listitem").first()).toContainText("Airline Agent Policy");
  await page.screenshot({ path: test.info().outputPath("first-page-trace.png"), fullPage: true });
});

test("malformed input shows where it is wrong and keeps what was pasted", async ({ page }) => {
  const inspector = new PasteInspectorPage(page);
  await inspector.goto();
  const broken = '[{"role": "user", "content": "hi"},\n {"role": "tool", "content": "x"}]';
  await inspector.paste(broken);
  await inspector.run.click();
  await expect(inspector.error).toContainText("line 2, message 1 ([1].tool_call_id): a tool message needs a string tool_call_id");
  await expect(inspector.conversation).toHaveValue(broken);
});
