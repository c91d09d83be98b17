import { gzipSync } from "node:zlib";
import type { Browser, Response } from "@playwright/test";

/**
 * What the browser downloads to open a page, before any interaction, for
 * bench/playground.ts: the page's scripts, the document, and separately the
 * pipeline Web Worker's files (the tokenizer's ranks live there by design, off
 * the page's main thread). Each in a fresh browser context, so nothing comes
 * from a cache. Sizes are of the decoded bodies; gzip is node:zlib at its
 * default level on those, and "on the wire" what `next start` sent.
 */

export interface FileSize {
  url: string;
  raw: number;
  gzip: number;
  wire: number;
}

export interface PageWeight {
  document: FileSize;
  scripts: FileSize[];
  /** The worker's entry and the chunks it loads; `shared` ones the page had loaded already. */
  worker: (FileSize & { shared: boolean })[];
}

const withoutHash = (url: string) => url.split("#")[0];

/** Chunk URLs a Turbopack worker entry loads: its URL carries them as `#params=[[chunk paths…], …]`. */
function workerChunks(workerUrl: string): string[] {
  const hash = new URL(workerUrl).hash;
  const match = /^#params=(.*)$/.exec(hash);
  if (!match) return [];
  try {
    const params = JSON.parse(decodeURIComponent(match[1])) as unknown[];
    const chunks = Array.isArray(params[0]) ? (params[0] as unknown[]) : [];
    return chunks.filter((chunk): chunk is string => typeof chunk === "string").map((chunk) => new URL(chunk, workerUrl).href);
  } catch {
    return [];
  }
}

async function sizeOf(response: Response): Promise<FileSize> {
  const body = await response.body();
  const sizes = await response.request().sizes();
  return { url: response.url(), raw: body.length, gzip: gzipSync(body).length, wire: sizes.responseBodySize };
}

/**
 * Opens `url` in a fresh context and waits for `ready` (the first run shown,
 * on the workspace) and then `quietMs` more, so late chunks are counted.
 */
export async function measurePageWeight(browser: Browser, url: string, ready: "load" | "first-run", quietMs = 1_500): Promise<PageWeight> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const responses: Response[] = [];
    const workers: string[] = [];
    page.on("response", (response) => void responses.push(response));
    page.on("worker", (worker) => void workers.push(worker.url()));
    await page.goto(url, { waitUntil: "load" });
    if (ready === "first-run")
      // The worker's first run, not the server's result the document carries.
      await page.waitForFunction(() => document.querySelector("[data-rendered-origin]")?.getAttribute("data-rendered-origin") === "worker", null, {
        timeout: 120_000,
      });
    await page.waitForTimeout(quietMs);

    const workerEntries = new Set(workers.map(withoutHash));
    const workerFiles = new Set(workers.flatMap((worker) => [withoutHash(worker), ...workerChunks(worker)]));
    const seen = new Set<string>();
    const unique = responses.filter((response) => {
      const key = `${response.request().resourceType()} ${withoutHash(response.url())}`;
      if (seen.has(key) || response.status() !== 200) return false;
      seen.add(key);
      return true;
    });
    const documentResponse = unique.find((response) => response.request().resourceType() === "document");
    if (!documentResponse) throw new Error(`no document response for ${url}`);
    const pageScripts = unique.filter((response) => response.request().resourceType() === "script" && !workerEntries.has(withoutHash(response.url())));
    const pageScriptUrls = new Set(pageScripts.map((response) => withoutHash(response.url())));
    const workerResponses: Response[] = [];
    for (const response of unique) {
      const key = withoutHash(response.url());
      if (workerFiles.has(key) && !workerResponses.some((known) => withoutHash(known.url()) === key)) workerResponses.push(response);
    }
    return {
      document: await sizeOf(documentResponse),
      scripts: await Promise.all(pageScripts.map(sizeOf)),
      worker: await Promise.all(
        workerResponses.map(async (response) => ({ ...(await sizeOf(response)), shared: pageScriptUrls.has(withoutHash(response.url())) })),
      ),
    };
  } finally {
    await context.close();
  }
}
