import path from "node:path";
import { chromium } from "@playwright/test";
import { startBenchApp } from "./playground/app";
import { CHROMIUM, VIEWPORT } from "./playground/chromium";
import { formatMs, machine, median, table, writeSection } from "./results";

/**
 * The home page's import of the 200 tau-bench trajectories (4 MB, one file),
 * as a user does it in Chromium against the production build: the file picked,
 * "Import and open" clicked, until the report of the 200 conversations shows.
 * Timed in the page: when the upload starts (its first progress event), when
 * every byte is sent, when the report is on screen, and the longest task on the
 * page's main thread meanwhile (what a user feels as a freeze).
 */

const FILE = path.join(import.meta.dirname, "..", "tests", "fixtures", "tau-bench-gpt4o-airline.json");
const RUNS = 3;

/** In-page marks: the first upload progress, "Sent; saving…", and long tasks (over 50 ms) as the browser reports them. */
const SCRIPT = `
(() => {
  const marks = { longestTaskMs: 0, longTasks: 0, uploadStartedAt: null, sentAt: null };
  window.__importMarks = marks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      marks.longTasks += 1;
      marks.longestTaskMs = Math.max(marks.longestTaskMs, entry.duration);
    }
  }).observe({ type: "longtask" });
  new MutationObserver(() => {
    if (marks.uploadStartedAt === null && document.querySelector('progress[aria-label="Upload progress"]')) marks.uploadStartedAt = performance.now();
    if (marks.sentAt === null && document.body.textContent.includes("Sent; saving")) marks.sentAt = performance.now();
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();
`;

interface ImportRun {
  startMs: number;
  sentMs: number;
  reportMs: number;
  longestTaskMs: number;
}

export async function benchPageImport(): Promise<ImportRun[]> {
  const app = await startBenchApp();
  const browser = await chromium.launch(CHROMIUM);
  const runs: ImportRun[] = [];
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const page = await browser.newPage({ viewport: VIEWPORT });
      await page.addInitScript(SCRIPT);
      await page.goto(app.url);
      await page.getByLabel("Open a conversation file").setInputFiles(FILE);
      await page.getByText(/too large to show here/).waitFor();
      const clickedAt = await page.evaluate(() => performance.now());
      await page.getByRole("button", { name: "Import and open" }).click();
      await page.getByRole("heading", { name: "Import report" }).waitFor({ timeout: 300_000 });
      await page.getByText("200 conversations created.").waitFor();
      const shownAt = await page.evaluate(
        () => new Promise<number>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())))),
      );
      const marks = await page.evaluate(
        () => (window as unknown as { __importMarks: { longestTaskMs: number; uploadStartedAt: number | null; sentAt: number | null } }).__importMarks,
      );
      runs.push({
        startMs: (marks.uploadStartedAt ?? shownAt) - clickedAt,
        sentMs: (marks.sentAt ?? shownAt) - clickedAt,
        reportMs: shownAt - clickedAt,
        longestTaskMs: marks.longestTaskMs,
      });
      await page.close();
    }
  } finally {
    await browser.close();
    await app.stop();
  }
  const column = (pick: (run: ImportRun) => number) => formatMs(median(runs.map(pick)));
  writeSection(
    "page-import",
    `## Page import: the 200 tau-bench trajectories through the home page

Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}: the production build (the app server, SQLite), Chromium at ${VIEWPORT.width}×${VIEWPORT.height}, ${RUNS} imports of \`tests/fixtures/tau-bench-gpt4o-airline.json\` (4.1 MB, 200 trajectories, 5,308 messages), each into the same database on a fresh page, medians. From the click on "Import and open": the upload's first progress (the file is sent from disk, never read into the page), every byte sent, the report of 200 conversations painted; and the longest task on the page's main thread in that time.

${table(
  ["upload starts ms", "all sent ms", "report shown ms", "longest main-thread task ms"],
  [[column((run) => run.startMs), column((run) => run.sentMs), column((run) => run.reportMs), column((run) => run.longestTaskMs)]],
)}

Each run: ${runs.map((run) => `${formatMs(run.reportMs)} ms (longest task ${formatMs(run.longestTaskMs)} ms)`).join(", ")}.`,
  );
  return runs;
}
