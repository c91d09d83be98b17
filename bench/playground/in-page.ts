import type { ElementHandle, Page } from "@playwright/test";

/**
 * Timing inside the page, for bench/playground.ts. Installed before the
 * document loads (`page.addInitScript`), it watches the workspace's
 * `data-rendered-revision` marker, which React changes in the same commit as
 * the conversation view and the trace table that show a new run result.
 * A result counts as shown two animation frames after that commit (the frame
 * holding it has been painted); the first result of a page load is timed by
 * the browser instead (Element Timing on the trace heading), since a result
 * the server rendered is in the document before any frame. Plain JavaScript
 * in a string, so nothing the TypeScript loader adds to functions reaches the
 * page.
 */
const SCRIPT = String.raw`
(() => {
  const commits = [];
  const waiters = [];
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const workerMs = () => {
    const text = document.querySelector('section[aria-label="Trace"] h3')?.textContent ?? "";
    const match = /([\d.]+) ms in the worker/.exec(text);
    return match ? Number(match[1]) : null;
  };
  const running = () => (document.querySelector('[role="status"][aria-label="Run status"]')?.textContent ?? "").includes("Running");

  function record(marker) {
    const revision = marker.getAttribute("data-rendered-revision");
    if (!revision) return;
    // The commit is complete when a mutation observer runs: every view of this result is in the DOM.
    const origin = marker.getAttribute("data-rendered-origin");
    const entry = { revision: Number(revision), origin, committedAt: performance.now(), paintedAt: null, workerMs: workerMs() };
    commits.push(entry);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        entry.paintedAt = performance.now();
        for (const waiter of waiters.splice(0)) waiter();
      }),
    );
  }

  // The trace heading's first paint, as the browser reports it: the first result on screen, whoever built it.
  let firstResultPaint = null;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.identifier === "first-result" && firstResultPaint === null) firstResultPaint = entry.renderTime || entry.loadTime;
  }).observe({ type: "element", buffered: true });

  document.addEventListener("DOMContentLoaded", () => {
    const marker = document.querySelector("[data-rendered-revision]");
    if (!marker) return;
    new MutationObserver(() => record(marker)).observe(marker, { attributes: true, attributeFilter: ["data-rendered-revision", "data-rendered-origin"] });
    record(marker);
  });

  const painted = (index, timeoutMs) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no new run result was shown within " + timeoutMs + " ms")), timeoutMs);
      const check = () => {
        const entry = commits[index];
        if (entry && entry.paintedAt !== null) {
          clearTimeout(timer);
          resolve(entry);
        } else waiters.push(check);
      };
      check();
    });

  function dispatch(slider, position) {
    setValue.call(slider, String(position));
    const at = performance.now();
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    return at;
  }

  window.__playgroundBench = {
    /** Navigation start to the first result painted (the server's, when the page carries one), then to the worker's first; that run's worker time. */
    firstShown: async (timeoutMs) => {
      const entry = await painted(0, timeoutMs);
      let workerEntry = entry;
      for (let index = 1; workerEntry.origin !== "worker"; index += 1) workerEntry = await painted(index, timeoutMs);
      const deadline = performance.now() + timeoutMs;
      while (firstResultPaint === null) {
        if (performance.now() > deadline) throw new Error("the browser reported no paint of the trace heading within " + timeoutMs + " ms");
        await sleep(10);
      }
      const navigation = performance.getEntriesByType("navigation")[0];
      const worker = performance.getEntriesByType("resource").find((resource) => /turbopack-worker|worker/.test(resource.name.split("/").pop()));
      return {
        ms: firstResultPaint,
        origin: entry.origin,
        workerShownMs: workerEntry.paintedAt,
        workerMs: workerEntry.workerMs,
        revision: workerEntry.revision,
        responseStart: navigation.responseStart,
        domContentLoaded: navigation.domContentLoadedEventEnd,
        workerRequested: worker ? worker.startTime : null,
      };
    },

    /** One slider change: from the input event to the new result painted. */
    change: async (slider, position, timeoutMs) => {
      const index = commits.length;
      const sentAt = dispatch(slider, position);
      const entry = await painted(index, timeoutMs);
      return { ms: entry.paintedAt - sentAt, commitMs: entry.committedAt - sentAt, workerMs: entry.workerMs, revision: entry.revision };
    },

    /** A moving slider: one change every intervalMs; waits until the runs stop and the view has been still for quietMs. */
    drag: async (slider, positions, intervalMs, quietMs, timeoutMs) => {
      const index = commits.length;
      const sent = [];
      const start = performance.now();
      for (let step = 0; step < positions.length; step += 1) {
        const wait = start + step * intervalMs - performance.now();
        if (wait > 0) await sleep(wait);
        sent.push(dispatch(slider, positions[step]));
      }
      const last = sent[sent.length - 1];
      const deadline = last + timeoutMs;
      for (;;) {
        await sleep(25);
        const shown = commits.slice(index);
        const final = shown[shown.length - 1];
        const settled = final && final.committedAt > last && final.paintedAt !== null && !running() && performance.now() - final.paintedAt >= quietMs;
        if (settled) {
          return {
            settleMs: final.paintedAt - last,
            fromFirstMs: final.paintedAt - sent[0],
            sentSpanMs: last - sent[0],
            results: shown.length,
            workerMs: final.workerMs,
          };
        }
        if (performance.now() > deadline) throw new Error("the view did not settle within " + timeoutMs + " ms of the last change");
      }
    },
  };
})();
`;

export async function installTimers(page: Page): Promise<void> {
  await page.addInitScript(SCRIPT);
}

/** Opening the workspace; times from navigation start. */
export interface FirstShown {
  /** The first result painted: the server's when the page carries one, else the worker's. */
  ms: number;
  /** Who built that first result. */
  origin: "server" | "worker";
  /** The worker's first result painted (the same as `ms` when the page carried none). */
  workerShownMs: number;
  /** The worker's first run, as its trace heading shows it. */
  workerMs: number | null;
  revision: number;
  /** The document's first byte (the server has rendered the page). */
  responseStart: number;
  domContentLoaded: number;
  /** The pipeline worker's script requested: the workspace's script has evaluated. */
  workerRequested: number | null;
}

export interface ChangeTiming {
  /** From the input event to the frame showing the new result painted. */
  ms: number;
  /** From the input event to React's commit of the new result. */
  commitMs: number;
  /** `RunResult.totalMs`: the worker's pipeline time, as the trace heading shows it. */
  workerMs: number | null;
  revision: number;
}

export interface DragTiming {
  /** From the last input event to the final result painted. */
  settleMs: number;
  /** From the first input event to the final result painted. */
  fromFirstMs: number;
  /** How long firing the changes took (timers run late while the main thread is busy). */
  sentSpanMs: number;
  /** Results shown during the drag, the final one included. */
  results: number;
  workerMs: number | null;
}

type Bench = {
  firstShown(timeoutMs: number): Promise<FirstShown>;
  change(slider: Element, position: number, timeoutMs: number): Promise<ChangeTiming>;
  drag(slider: Element, positions: number[], intervalMs: number, quietMs: number, timeoutMs: number): Promise<DragTiming>;
};
type BenchWindow = { __playgroundBench: Bench };

export function firstShown(page: Page, timeoutMs = 120_000): Promise<FirstShown> {
  return page.evaluate((timeout) => (window as unknown as BenchWindow).__playgroundBench.firstShown(timeout), timeoutMs);
}

export function timeChange(page: Page, slider: ElementHandle<Element>, position: number, timeoutMs = 30_000): Promise<ChangeTiming> {
  return page.evaluate(([element, to, timeout]) => (window as unknown as BenchWindow).__playgroundBench.change(element, to, timeout), [
    slider,
    position,
    timeoutMs,
  ] as const);
}

export function timeDrag(
  page: Page,
  slider: ElementHandle<Element>,
  positions: number[],
  intervalMs: number,
  quietMs = 300,
  timeoutMs = 60_000,
): Promise<DragTiming> {
  return page.evaluate(
    ([element, to, interval, quiet, timeout]) => (window as unknown as BenchWindow).__playgroundBench.drag(element, to, interval, quiet, timeout),
    [slider, positions, intervalMs, quietMs, timeoutMs] as const,
  );
}
