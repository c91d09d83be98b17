import http from "node:http";
import { chromium, type Browser, type ElementHandle, type Page } from "@playwright/test";
import { NUMERIC_FIELDS } from "@/components/pipeline/settings-fields";
import { fromSliderPosition, toSliderPosition } from "@/components/pipeline/range-scale";
import { buildConversation } from "./corpus";
import { startBenchApp, type BenchApp } from "./playground/app";
import { CHROMIUM, VIEWPORT } from "./playground/chromium";
import { firstShown, installTimers, timeChange, timeDrag, type ChangeTiming, type DragTiming, type FirstShown } from "./playground/in-page";
import { measurePageWeight, type FileSize, type PageWeight } from "./playground/page-weight";
import { formatMs, machine, median, table, writeSection } from "./results";

/**
 * The playground in Chromium, as users get it (production build, the app server,
 * conversations imported through the API): from a slider change to the
 * updated view on 2,000- and 10,000-message conversations, both sliders side
 * by side in one process; a moving slider; and what the browser downloads to
 * open the pages.
 */

const SIZES = [2_000, 10_000];
/** Conversations opened (and read) besides SIZES: one real trajectory's length, the small case. */
const SMALL = 62;
/** Loads per conversation when timing the opening of the workspace; medians reported. */
const LOADS = 5;
/** Concurrent keep-alive connections, and seconds, per throughput row. */
const READERS = 8;
const READ_SECONDS = 5;
/** Measured single changes per size and slider, after WARMUP unmeasured ones. */
const CHANGES = 30;
const WARMUP = 3;
/** Changes per page before moving to the other size, so drift on a shared machine hits both alike. */
const BLOCK = 5;
/** Pause after each change, for the run's trailing updates (run status) to land. */
const PAUSE_MS = 150;
const DRAGS = 5;
const DRAG_STEPS = 20;
const DRAG_INTERVAL_MS = 16;

interface SliderCase {
  key: "historyRounds" | "maxMessageSize";
  /** The default value, then the one it alternates with. */
  values: [number, number];
  /** Direction of the first drag along the track. */
  dragDirection: 1 | -1;
}

const SLIDERS: SliderCase[] = [
  { key: "historyRounds", values: [20, 10], dragDirection: 1 },
  // 400 offloads most tool results of the conversation; 10,000 is the default.
  { key: "maxMessageSize", values: [10_000, 400], dragDirection: -1 },
];

const positionOf = (slider: SliderCase, value: number) => toSliderPosition(value, NUMERIC_FIELDS[slider.key]);
const valueAt = (slider: SliderCase, position: number) => fromSliderPosition(position, NUMERIC_FIELDS[slider.key]);

interface Workspace {
  size: number;
  page: Page;
  sliders: Map<SliderCase, { handle: ElementHandle<Element>; position: number; changes: ChangeTiming[]; drags: DragTiming[] }>;
}

/** Opens the workspace `count` times, each in a fresh context (nothing cached), until the worker's first result is painted. */
async function timeOpenings(browser: Browser, url: string, id: string, count: number): Promise<FirstShown[]> {
  const loads: FirstShown[] = [];
  for (let load = 0; load < count; load += 1) {
    const context = await browser.newContext({ viewport: VIEWPORT });
    try {
      const page = await context.newPage();
      await installTimers(page);
      await page.goto(`${url}/c/${id}`, { waitUntil: "domcontentloaded", timeout: 120_000 });
      loads.push(await firstShown(page));
    } finally {
      await context.close();
    }
  }
  return loads;
}

/** Requests per second a path is answered at, READERS keep-alive connections at once for READ_SECONDS; every answer must be 200. */
async function readsPerSecond(url: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: READERS });
  const get = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent }, (response) => {
          response.resume();
          response.on("end", () => (response.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${response.statusCode}`))));
        })
        .on("error", reject);
    });
  try {
    for (let warm = 0; warm < 20; warm += 1) await get();
    const started = performance.now();
    let answered = 0;
    await Promise.all(
      Array.from({ length: READERS }, async () => {
        while (performance.now() - started < READ_SECONDS * 1000) {
          await get();
          answered += 1;
        }
      }),
    );
    return answered / ((performance.now() - started) / 1000);
  } finally {
    agent.destroy();
  }
}

async function openWorkspace(browser: Browser, url: string, size: number, id: string): Promise<Workspace> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await installTimers(page);
  await page.goto(`${url}/c/${id}`, { waitUntil: "domcontentloaded", timeout: 120_000 });
  await firstShown(page);
  const sliders: Workspace["sliders"] = new Map();
  for (const slider of SLIDERS) {
    const handle = await page.getByRole("slider", { name: NUMERIC_FIELDS[slider.key].label, exact: true }).elementHandle();
    if (!handle) throw new Error(`no ${NUMERIC_FIELDS[slider.key].label} slider`);
    const position = Number(await handle.inputValue());
    if (position !== positionOf(slider, slider.values[0]))
      throw new Error(`${slider.key} starts at position ${position}, not at the default ${slider.values[0]}`);
    sliders.set(slider, { handle, position, changes: [], drags: [] });
  }
  return { size, page, sliders };
}

/** One change to the other of the slider's two values. */
async function change(workspace: Workspace, slider: SliderCase): Promise<ChangeTiming> {
  const state = workspace.sliders.get(slider)!;
  const [a, b] = slider.values.map((value) => positionOf(slider, value));
  const to = state.position === a ? b : a;
  const timing = await timeChange(workspace.page, state.handle, to);
  state.position = to;
  await workspace.page.waitForTimeout(PAUSE_MS);
  return timing;
}

async function drag(workspace: Workspace, slider: SliderCase, index: number): Promise<DragTiming> {
  const state = workspace.sliders.get(slider)!;
  const direction = index % 2 === 0 ? slider.dragDirection : -slider.dragDirection;
  const positions = Array.from({ length: DRAG_STEPS }, (_, step) => state.position + direction * (step + 1));
  const timing = await timeDrag(workspace.page, state.handle, positions, DRAG_INTERVAL_MS);
  state.position = positions.at(-1)!;
  await workspace.page.waitForTimeout(PAUSE_MS);
  return timing;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)];
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const sum = (files: FileSize[], pick: (file: FileSize) => number) => files.reduce((total, file) => total + pick(file), 0);
const number = (value: number) => value.toLocaleString("en");
const fileName = (url: string) => new URL(url).pathname.split("/").at(-1) ?? url;

interface Opened {
  size: number;
  /** The first load after the import: nothing kept on the server for the branch yet. */
  first: FirstShown;
  loads: FirstShown[];
}

interface Reads {
  path: string;
  perSecond: number;
}

function report(
  workspaces: Workspace[],
  weights: { home: PageWeight; workspaces: { size: number; weight: PageWeight }[] },
  openings: Opened[],
  reads: Reads[],
  browserVersion: string,
  buildMs: number,
): string {
  const sliderLabel = (slider: SliderCase) => {
    const [a, b] = slider.values.map((value) => number(valueAt(slider, positionOf(slider, value))));
    return `${NUMERIC_FIELDS[slider.key].label} ${a} ↔ ${b}`;
  };
  const changeRows = SLIDERS.flatMap((slider) =>
    workspaces.map((workspace) => {
      const changes = workspace.sliders.get(slider)!.changes;
      const ms = changes.map((timing) => timing.ms);
      const worker = changes.map((timing) => timing.workerMs ?? Number.NaN);
      return [
        sliderLabel(slider),
        number(workspace.size),
        changes.length,
        formatMs(median(ms)),
        formatMs(percentile(ms, 0.9)),
        formatMs(Math.max(...ms)),
        formatMs(median(worker)),
        formatMs(median(changes.map((timing) => timing.commitMs - (timing.workerMs ?? Number.NaN)))),
        formatMs(median(changes.map((timing) => timing.ms - timing.commitMs))),
      ];
    }),
  );
  const dragRows = SLIDERS.flatMap((slider) =>
    workspaces.map((workspace) => {
      const drags = workspace.sliders.get(slider)!.drags;
      const settle = drags.map((timing) => timing.settleMs);
      return [
        NUMERIC_FIELDS[slider.key].label,
        number(workspace.size),
        drags.length,
        formatMs(median(settle)),
        formatMs(Math.max(...settle)),
        formatMs(median(drags.map((timing) => timing.fromFirstMs))),
        formatMs(median(drags.map((timing) => timing.sentSpanMs))),
        median(drags.map((timing) => timing.results)),
        formatMs(median(drags.map((timing) => timing.workerMs ?? Number.NaN))),
      ];
    }),
  );
  const openRows = openings.map(({ size, first, loads }) => {
    const weight = weights.workspaces.find((entry) => entry.size === size)!.weight;
    const middle = (field: (load: FirstShown) => number | null) => formatMs(median(loads.map((load) => field(load) ?? Number.NaN)));
    const origins = [...new Set(loads.map((load) => load.origin))].join(", ");
    return [
      number(size),
      kib(weight.document.raw),
      kib(weight.document.gzip),
      middle((load) => load.responseStart),
      middle((load) => load.domContentLoaded),
      `${middle((load) => load.ms)} (${origins})`,
      `${formatMs(Math.min(...loads.map((load) => load.ms)))}–${formatMs(Math.max(...loads.map((load) => load.ms)))}`,
      middle((load) => load.workerRequested),
      middle((load) => load.workerShownMs),
      middle((load) => load.workerMs),
      `${formatMs(first.responseStart)} / ${formatMs(first.ms)} (${first.origin})`,
    ];
  });

  const workspaceWeight = weights.workspaces[0].weight;
  const scriptRow = (route: string, weight: PageWeight) => {
    const largest = [...weight.scripts].sort((left, right) => right.raw - left.raw)[0];
    return [
      route,
      weight.scripts.length,
      kib(sum(weight.scripts, (file) => file.raw)),
      kib(sum(weight.scripts, (file) => file.gzip)),
      kib(sum(weight.scripts, (file) => file.wire)),
      `${fileName(largest.url)} (${kib(largest.gzip)} gzip)`,
    ];
  };
  const workerRows = workspaceWeight.worker.map((file) => [
    fileName(file.url),
    kib(file.raw),
    kib(file.gzip),
    file.shared ? "the page's Turbopack runtime (already loaded, counted above)" : "worker only",
  ]);
  const workerOnly = workspaceWeight.worker.filter((file) => !file.shared);

  return [
    "## Playground: slider to view, in Chromium",
    "",
    `Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}, with Debian's Chromium ${browserVersion} (headless, the e2e tests' flags, ${VIEWPORT.width}×${VIEWPORT.height}) driven by Playwright, against a production build (\`npm run build\` into \`.next-bench\`, ${formatMs(buildMs / 1000)} s; the app server on loopback, a fresh SQLite database). Conversations: \`bench/corpus.ts\` \`buildConversation(size)\` (real tau-bench airline trajectories) imported through \`POST /api/conversations/import\`; default settings (copilot). Both workspaces open in one browser; measurements alternate between them in blocks of ${BLOCK} changes, so drift on the shared machine hits both alike.`,
    "",
    `A change is a value set on the slider and its \`input\` event dispatched in the page (what dragging fires). Timed in the page from that event until the workspace's \`data-rendered-revision\` marker — rendered in the same React commit as the conversation view and the trace table — changes, plus two animation frames (the frame holding the new result painted). Each change alternates between two values so every one re-runs; ${PAUSE_MS} ms pause between changes; ${WARMUP} warm-up changes per slider not counted. Worker = \`RunResult.totalMs\` (the pipeline in the Web Worker, from the trace heading); "to commit − worker" is the rest until React has committed (the worker building and posting the result, the main thread receiving it, the store update and React's render); "commit → painted" is the two frames: style, layout and paint, and waiting for headless Chromium's frame clock (which is why it is not larger for the larger conversation: the view is virtualised).`,
    "",
    "### One change at a time",
    "",
    table(
      ["slider", "messages", "changes", "median ms", "p90 ms", "max ms", "worker median ms", "to commit − worker, median ms", "commit → painted, median ms"],
      changeRows,
    ),
    "",
    `### Dragging: ${DRAG_STEPS} changes fired ${DRAG_INTERVAL_MS} ms apart`,
    "",
    `Each drag moves the slider one track position per change (History rounds by 1 round, Token budget by ~2.5%), away from the default and back on the next drag. Settled = the runs have stopped and the view shows the last value's result (the pipeline client coalesces: only the newest waiting settings run); timed from the last change to that result painted. "Firing took" is how long the ${DRAG_STEPS} changes took to dispatch (timers run late while the main thread renders).`,
    "",
    table(
      [
        "slider",
        "messages",
        "drags",
        "settled after last change, median ms",
        "max ms",
        "from first change, median ms",
        "firing took, median ms",
        "results shown per drag",
        "worker ms (last run)",
      ],
      dragRows,
    ),
    "",
    "### Opening the workspace",
    "",
    `Milliseconds from navigation start, medians of ${LOADS} loads per conversation, each in a fresh browser context (nothing cached in the browser); the ${SMALL}-message conversation is one real trajectory's length. The document carries the branch's first screen of messages and, for branches up to 10,000 messages, the first pipeline result built by the server (kept there per branch, revision and settings; the last column is the first load after the import, when nothing was kept yet). The workspace reads the rest of the history through the paged history API while the pipeline worker loads (requested as the workspace's script evaluates) and then loads the tokenizer of the conversation's encoding; the worker's first run counts every message from cold and replaces the server's result. "First result painted" is the trace heading's first paint as Chromium reports it (Element Timing); "worker's first result painted" is two animation frames after React committed the worker's result.`,
    "",
    table(
      [
        "messages",
        "document KiB",
        "gzip KiB",
        "first byte",
        "DOMContentLoaded",
        "first result painted (built by)",
        "first result painted, min–max",
        "worker requested",
        "worker's first result painted",
        "first run in the worker",
        "first load after import: first byte / first result painted",
      ],
      openRows,
    ),
    "",
    "### Reads: requests per second",
    "",
    `The app server answering GETs from ${READERS} keep-alive connections at once for ${READ_SECONDS} s, every answer a 200 (the load generator runs on the same machine, in this process). The workspace page renders the conversation's first screen; \`/api/health\` is the server's floor (a route that reads nothing).`,
    "",
    table(
      ["path", "requests/s"],
      reads.map((read) => [read.path, formatMs(read.perSecond)]),
    ),
    "",
    "### Initial JavaScript",
    "",
    "Scripts the page loads before any interaction (fresh browser context; `/` until its load event, the workspace until the worker's first run is shown, plus 1.5 s), the pipeline worker's files excluded. KiB of the decoded bodies; gzip = node:zlib at its default level on those; on the wire = what the server sent (Next gzips pages).",
    "",
    table(
      ["route", "script files", "raw KiB", "gzip KiB", "on the wire KiB", "largest"],
      [scriptRow("/", weights.home), scriptRow("/c/[id]", workspaceWeight)],
    ),
    "",
    `The pipeline Web Worker (loaded by the workspace once it has hydrated; not page weight: the engine and the tokenizer's ranks run there, off the main thread, by design). Worker-only files: ${kib(sum(workerOnly, (file) => file.raw))} KiB raw, ${kib(sum(workerOnly, (file) => file.gzip))} KiB gzip.`,
    "",
    table(["worker file", "raw KiB", "gzip KiB", ""], workerRows),
  ].join("\n");
}

/** Measures a running app (imports its conversations, drives Chromium) and returns the section's markdown. */
export async function measurePlayground(app: Pick<BenchApp, "url" | "buildMs" | "importConversation">): Promise<string> {
  const conversations = [SMALL, ...SIZES].map((size) => ({ size, messages: buildConversation(size) }));
  const imported = [];
  for (const { size, messages } of conversations) {
    const conversation = await app.importConversation(`bench ${size} messages`, messages);
    if (conversation.messageCount !== size) throw new Error(`the ${size}-message conversation was stored with ${conversation.messageCount} messages`);
    imported.push({ size, id: conversation.id });
  }
  const browser = await chromium.launch(CHROMIUM);
  try {
    const browserVersion = browser.version();
    // Before anything else opens them: nothing is kept on the server for these branches yet.
    const firstLoads = new Map<number, FirstShown>();
    for (const { size, id } of imported) firstLoads.set(size, (await timeOpenings(browser, app.url, id, 1))[0]);
    console.log("playground: page weight…");
    const home = await measurePageWeight(browser, `${app.url}/`, "load");
    const workspaceWeights = [];
    for (const { size, id } of imported) workspaceWeights.push({ size, weight: await measurePageWeight(browser, `${app.url}/c/${id}`, "first-run") });

    console.log("playground: opening the workspaces…");
    const openings: Opened[] = [];
    for (const { size, id } of imported) openings.push({ size, first: firstLoads.get(size)!, loads: await timeOpenings(browser, app.url, id, LOADS) });
    console.log("playground: reads…");
    const reads: Reads[] = [];
    for (const { size, id } of imported) reads.push({ path: `/c/[id], ${number(size)} messages`, perSecond: await readsPerSecond(`${app.url}/c/${id}`) });
    reads.push({ path: "/", perSecond: await readsPerSecond(`${app.url}/`) });
    reads.push({ path: "/api/health", perSecond: await readsPerSecond(`${app.url}/api/health`) });

    const workspaces: Workspace[] = [];
    for (const { size, id } of imported) if (SIZES.includes(size)) workspaces.push(await openWorkspace(browser, app.url, size, id));

    for (const workspace of workspaces) {
      await workspace.page.bringToFront();
      for (const slider of SLIDERS) for (let index = 0; index < WARMUP; index += 1) await change(workspace, slider);
    }
    for (let done = 0; done < CHANGES; done += BLOCK) {
      for (const workspace of workspaces) {
        await workspace.page.bringToFront();
        for (const slider of SLIDERS) {
          for (let index = done; index < Math.min(CHANGES, done + BLOCK); index += 1)
            workspace.sliders.get(slider)!.changes.push(await change(workspace, slider));
        }
      }
      console.log(`playground: ${Math.min(CHANGES, done + BLOCK)}/${CHANGES} changes per size and slider`);
    }

    // Drags start from the defaults.
    for (const workspace of workspaces) {
      await workspace.page.bringToFront();
      for (const slider of SLIDERS) if (workspace.sliders.get(slider)!.position !== positionOf(slider, slider.values[0])) await change(workspace, slider);
    }
    for (let index = 0; index < DRAGS; index += 1) {
      for (const workspace of workspaces) {
        await workspace.page.bringToFront();
        for (const slider of SLIDERS) workspace.sliders.get(slider)!.drags.push(await drag(workspace, slider, index));
      }
    }
    console.log("playground: drags done");
    return report(workspaces, { home, workspaces: workspaceWeights }, openings, reads, browserVersion, app.buildMs);
  } finally {
    await browser.close();
  }
}

export async function benchPlayground(): Promise<string> {
  let app: BenchApp | undefined;
  const cleanup = async () => {
    await app?.stop();
    app = undefined;
  };
  const interrupted = (signal: NodeJS.Signals) => void cleanup().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  try {
    console.log("playground: building the app (npm run build into .next-bench)…");
    app = await startBenchApp();
    const markdown = await measurePlayground(app);
    writeSection("playground", markdown);
    return markdown;
  } finally {
    await cleanup();
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
  }
}
