import { expect, type Locator, type Page } from "@playwright/test";

/** `/c/[conversationId]`: the conversation view, the header and the inspector panels. */
export class WorkspacePage {
  readonly loaded: Locator;
  readonly processed: Locator;
  readonly before: Locator;
  readonly after: Locator;
  readonly trace: Locator;
  readonly budgetBar: Locator;
  readonly branch: Locator;
  readonly fork: Locator;
  readonly tabs: Locator;
  readonly status: Locator;
  readonly shortcutsButton: Locator;
  readonly shortcutsSheet: Locator;

  constructor(readonly page: Page) {
    this.loaded = page.getByRole("list", { name: "Loaded conversation" });
    this.processed = page.getByRole("list", { name: "Processed history" });
    this.before = page.getByRole("button", { name: /^Before/ });
    this.after = page.getByRole("button", { name: /^After/ });
    this.trace = page.getByRole("table", { name: "Pipeline trace" });
    this.budgetBar = page.getByRole("region", { name: "Token budget" }).getByRole("img", { name: /^Context window/ });
    this.branch = page.getByRole("combobox", { name: "Current branch", exact: true });
    this.fork = page.getByRole("banner").getByRole("button", { name: /^Fork/ });
    this.tabs = page.getByRole("tablist", { name: "Inspector panels" });
    this.status = page.getByRole("status", { name: "Run status" });
    this.shortcutsButton = page.getByRole("button", { name: "Keyboard shortcuts" });
    this.shortcutsSheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  }

  /** Waits until the worker has run the pipeline on the shown branch. */
  async ready(): Promise<void> {
    await expect(this.status).toContainText(/Run \d+/);
  }

  row(index: number, list: Locator = this.loaded): Locator {
    return list.getByRole("listitem", { name: new RegExp(`^Message ${index}, `) });
  }

  traceRow(processor: string): Locator {
    return this.trace.getByRole("row", { name: new RegExp(`^${processor}\\b`) });
  }

  /** [before, after] of a trace row's messages and tokens columns. */
  async traceCounts(processor: string): Promise<{ messages: [number, number]; tokens: [number, number] }> {
    const cells = this.traceRow(processor).getByRole("cell");
    const read = async (cell: Locator) => (await cell.innerText()).split("→").map((part) => Number(part.replace(/\D/g, ""))) as [number, number];
    return { messages: await read(cells.nth(0)), tokens: await read(cells.nth(1)) };
  }

  slider(label: string): Locator {
    return this.page.getByRole("slider", { name: label });
  }

  tab(name: string): Locator {
    return this.tabs.getByRole("tab", { name });
  }

  async currentTheme(): Promise<string | null> {
    return this.page.evaluate(() => document.documentElement.dataset.theme ?? null);
  }

  /** The URL's search params. */
  search(): URLSearchParams {
    return new URL(this.page.url()).searchParams;
  }
}
