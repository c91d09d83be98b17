import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace";
import { importConversation, tauBench } from "./support/fixtures";

const PROCESSORS = ["message_offloader", "dialogue_compressor", "round_window", "summarize", "token_budget"];

test("the page carries its first result: with scripts off the trace and the history are there, and the worker's run agrees", async ({
  browser,
  page,
  request,
}) => {
  const { conversationId } = await importConversation(request, JSON.stringify(tauBench[2].traj), "first result");

  // No script runs here: whatever shows was rendered by the server.
  const still = await browser.newContext({ javaScriptEnabled: false, baseURL: test.info().project.use.baseURL });
  try {
    const server = new WorkspacePage(await still.newPage());
    await server.page.goto(`/c/${conversationId}`);
    await expect(server.status).toHaveText(/First run, on the server · \d+ ms/);
    await expect(server.page.getByRole("heading", { name: /Trace .* ms on the server/ })).toBeVisible();
    await expect(server.row(0, server.loaded)).toContainText("Airline Agent Policy");
    // Rows are not measured yet, so they are laid out one below the other rather than at estimated heights.
    const boxes = await Promise.all([0, 1, 2, 3].map((index) => server.row(index, server.loaded).boundingBox()));
    for (let index = 1; index < boxes.length; index += 1) expect(boxes[index]!.y).toBeGreaterThanOrEqual(boxes[index - 1]!.y + boxes[index - 1]!.height - 1);
    await expect(server.budgetBar).toBeVisible();
    const serverCounts = await Promise.all(PROCESSORS.map((processor) => server.traceCounts(processor)));

    // With scripts, the worker's own first run replaces it: the same counts.
    const workspace = new WorkspacePage(page);
    await page.goto(`/c/${conversationId}`);
    await workspace.ready();
    await expect(page.getByRole("heading", { name: /Trace .* ms in the worker/ })).toBeVisible();
    const workerCounts = await Promise.all(PROCESSORS.map((processor) => workspace.traceCounts(processor)));
    expect(workerCounts).toEqual(serverCounts);
    // The first processor received the whole stored history.
    expect(serverCounts[0].messages[0]).toBe(tauBench[2].traj.length);
  } finally {
    await still.close();
  }
});
