import { expect, test } from "@playwright/test";
import { LibraryPanel } from "./pages/library";
import { fakeUpstream } from "./support/fake-upstream";
import { fixtureText } from "./support/fixtures";

// Conversation #37 of the 200 tau-bench trajectories: imported 163rd from the newest, far past the newest hundred.
const TASK_37 = /^tau-bench airline task 37 \(trial 0,/;

test("[LB-1] [LB-2] [LB-3] [LB-5] 200 imported conversations: #37 found by search at once, pages reach the oldest, filters narrow, the URL keeps it all", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await fakeUpstream.reset();
  const imported = await request.post("/api/conversations/import?conversation=all&filename=gpt-4o-airline.json", {
    data: fixtureText("tau-bench-gpt4o-airline.json"),
    headers: { "content-type": "application/json" },
    timeout: 150_000,
  });
  expect(imported.status()).toBe(201);

  // One conversation made here with a call that failed: what the source and failed-call filters tell apart.
  const created = await request.post("/api/conversations", { data: { title: "library failing agent", messages: [{ role: "user", content: "hi" }] } });
  const { conversation } = (await created.json()) as { conversation: { id: string } };
  await fakeUpstream.enqueue({ kind: "error", status: 500, body: { error: { message: "upstream broke", type: "server_error", code: null, param: null } } });
  const failing = await request.post("/api/v1/chat/completions", {
    data: { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] },
    headers: { "x-context-lab-conversation": conversation.id, authorization: "Bearer ctxlab-e2e-library" },
  });
  expect(failing.status()).toBe(500);

  // The route's first request loads its code: done here, so the timed search below is a search, not a start-up.
  expect((await request.get("/api/conversations?q=airline")).ok()).toBe(true);
  const library = new LibraryPanel(page);
  await page.goto("/");
  await expect(library.rows).toHaveCount(50);
  const total = await library.total();
  expect(total).toBeGreaterThanOrEqual(201);
  await expect(library.row(TASK_37)).toHaveCount(0);
  // The header's links prefetch their pages on the same server: the timed search starts once they are in.
  await page.waitForLoadState("networkidle");

  // LB-1: typed, debounced, answered from the index; 1 s is the whole budget, typing included.
  await library.search.fill("task 37");
  // Another spec may have imported the same file: found is found, whichever import the row comes from.
  await expect(library.row(TASK_37).first()).toBeVisible({ timeout: 1_000 });
  await expect(library.count).toContainText("matching conversation");
  expect(new URL(page.url()).searchParams.get("q")).toBe("task 37");
  await page.screenshot({ path: test.info().outputPath("library-search.png") });

  // LB-3: the failed-call filter finds the one conversation with a failed call; the source filter leaves it out.
  await library.search.fill("");
  await expect(library.count).not.toContainText("matching");
  await library.failedCalls.check();
  await expect(library.row("library failing agent")).toContainText("1 failed call");
  await expect(library.rows.filter({ hasNotText: /failed call/ })).toHaveCount(0);
  await library.source.selectOption("import");
  await expect(library.row("library failing agent")).toHaveCount(0);
  await expect(library.rows.filter({ hasNotText: "import:" })).toHaveCount(0);
  expect(new URL(page.url()).searchParams.get("source")).toBe("import");

  // LB-5: the back button undoes one change at a time.
  await page.goBack();
  await expect(library.source).toHaveValue("");
  await expect(library.failedCalls).toBeChecked();
  await page.goBack();
  await expect(library.failedCalls).not.toBeChecked();
  await expect(library.rows).toHaveCount(50);

  // LB-2: newest first by creation, the last page ends with the oldest match (other specs' imports may be older than ours); a shared link opens the same page.
  const oldest = await request.get("/api/conversations?q=tau-bench%20airline&source=import&sort=created&order=asc&limit=1");
  const oldestTitle = ((await oldest.json()) as { conversations: { title: string }[] }).conversations[0].title;
  await library.source.selectOption("import");
  await library.sort.selectOption("created");
  await library.search.fill("tau-bench airline");
  await expect(page).toHaveURL(/q=tau-bench\+airline/);
  await expect(library.count).toContainText("matching");
  await library.lastPage.click();
  await expect(library.rows.last()).toContainText(oldestTitle);
  await expect(library.nextPage).toHaveCount(0);
  const shared = page.url();
  await page.goto(shared);
  await expect(library.search).toHaveValue("tau-bench airline");
  await expect(library.source).toHaveValue("import");
  await expect(library.sort).toHaveValue("created");
  await expect(library.rows.last()).toContainText(oldestTitle);

  // LB-4: the longest first by messages.
  await library.sort.selectOption("messages");
  await expect(page).toHaveURL(/sort=messages/);
  await expect(library.count).not.toContainText("updating");
  await expect(library.rows).toHaveCount(50);
  const counts = await library.rows.evaluateAll((rows) =>
    rows.map((row) => Number(/([\d,]+) messages?/.exec(row.textContent ?? "")?.[1]?.replaceAll(",", ""))),
  );
  expect(counts.length).toBeGreaterThan(1);
  expect([...counts].sort((a, b) => b - a)).toEqual(counts);
});
