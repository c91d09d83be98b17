import { chromium, type Page } from "@playwright/test";
import { callPoints } from "@/lib/context";
import { startBenchApp, type BenchApp } from "./playground/app";
import { CHROMIUM, VIEWPORT } from "./playground/chromium";
import { CALLS, conversationWithCalls } from "./replay";
import { formatMs, machine, median, table, writeSection } from "./results";

/**
 * The Compare tab as users run it: a conversation of 200 model calls opened in
 * Chromium, raw and three policies replayed in the page's Web Worker. Timed in
 * the page from the click on Compare to the comparison's table, the progress
 * bar gone; each run on a freshly loaded page (a cold worker), then once again
 * on the same page (the last comparison still shown), median of 5 each.
 */

const RUNS = 5;
const POLICIES = ["Current settings", "Observation masking", "Tool-result clearing"];

interface CompareTiming {
  ms: number;
  /** Whether the progress bar was seen while the comparison ran. */
  progressShown: boolean;
  /** Rows of the comparison's table: raw and the policies. */
  rows: number;
}

/**
 * Clicks Compare and waits, in the page, for the finished table, checking
 * frame by frame, so the figure is the page's own. Plain JavaScript in a
 * string, so nothing the TypeScript loader adds to functions reaches the page.
 */
const TIME_COMPARE = `
new Promise((resolve, reject) => {
  const section = document.querySelector('section[aria-label="Policies to compare"]');
  const button = [...(section ? section.querySelectorAll("button") : [])].find((candidate) => candidate.textContent === "Compare" && !candidate.disabled);
  if (!button) return reject(new Error("no enabled Compare button in the Compare tab"));
  let progressShown = false;
  const started = performance.now();
  button.click();
  const check = () => {
    const progress = document.querySelector('[aria-label="Comparison progress"]');
    progressShown = progressShown || progress !== null;
    const done = document.querySelector('table[aria-label="Comparison totals"]');
    if (done && !progress) resolve({ ms: performance.now() - started, progressShown, rows: done.querySelectorAll("tbody tr").length });
    else if (performance.now() - started > 120000) reject(new Error("the comparison did not finish within 2 minutes"));
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})
`;

function timeCompare(page: Page): Promise<CompareTiming> {
  return page.evaluate(TIME_COMPARE) as Promise<CompareTiming>;
}

export async function measureReplayInBrowser(app: Pick<BenchApp, "url" | "importConversation">): Promise<string> {
  const conversation = conversationWithCalls(CALLS);
  const calls = callPoints(conversation).length;
  const { id } = await app.importConversation(`bench replay ${CALLS} calls`, conversation);
  const browser = await chromium.launch(CHROMIUM);
  const timings: CompareTiming[] = [];
  const again: CompareTiming[] = [];
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    for (let run = 0; run < RUNS; run += 1) {
      await page.goto(`${app.url}/c/${id}?tab=compare`);
      await page
        .getByRole("status", { name: "Run status" })
        .filter({ hasText: /Run \d+/ })
        .waitFor({ timeout: 120_000 });
      for (const [index, label] of POLICIES.entries()) await page.getByRole("combobox", { name: `Policy ${index + 1}` }).selectOption({ label });
      timings.push(await timeCompare(page));
      again.push(await timeCompare(page));
      console.log(`replay-browser: run ${run + 1}: ${formatMs(timings.at(-1)!.ms)} ms, again on the page ${formatMs(again.at(-1)!.ms)} ms`);
    }
    const version = browser.version();
    const figures = (runs: CompareTiming[]) => {
      const ms = runs.map((timing) => timing.ms);
      return [formatMs(median(ms)), formatMs(Math.min(...ms)), formatMs(Math.max(...ms))];
    };
    return [
      "## Replay in Chromium: the Compare tab",
      "",
      `Measured on ${machine()}, Chromium ${version}, ${new Date().toISOString().slice(0, 10)}. The production build (the app server, SQLite); a conversation of ${conversation.length} real tau-bench messages (MIT) with ${calls} model calls, imported through the API and opened on the Compare tab. Raw and three policies (${POLICIES.join(", ")}) replayed in the page's Web Worker, timed in the page from the click on Compare to the finished table: first on a freshly loaded page, then again on the same page with that comparison still shown.`,
      "",
      table(
        ["", `median of ${RUNS} ms`, "fastest ms", "slowest ms"],
        [
          ["first run (fresh page)", ...figures(timings)],
          ["again on the same page", ...figures(again)],
        ],
      ),
      "",
      `Progress bar shown during every run: ${[...timings, ...again].every((timing) => timing.progressShown) ? "yes" : "no"}; rows in the finished table: ${timings[0].rows} (raw and ${POLICIES.length} policies).`,
    ].join("\n");
  } finally {
    await browser.close();
  }
}

export async function benchReplayBrowser(): Promise<string> {
  console.log("replay-browser: building the app (npm run build into .next-bench)…");
  const app = await startBenchApp();
  try {
    const markdown = await measureReplayInBrowser(app);
    writeSection("replay-browser", markdown);
    return markdown;
  } finally {
    await app.stop();
  }
}
