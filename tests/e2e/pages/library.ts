import type { Locator, Page } from "@playwright/test";

/** The home page's saved conversations: the library's search, filters, sort, count and pages (lib/library). */
export class LibraryPanel {
  readonly search: Locator;
  readonly source: Locator;
  readonly failedCalls: Locator;
  readonly overBudget: Locator;
  readonly sort: Locator;
  readonly count: Locator;
  readonly list: Locator;
  readonly rows: Locator;
  readonly nextPage: Locator;
  readonly lastPage: Locator;
  readonly firstPage: Locator;

  constructor(page: Page) {
    const region = page.getByRole("region", { name: "Saved conversations" });
    this.search = region.getByRole("searchbox", { name: "Search conversations" });
    this.source = region.getByRole("combobox", { name: "Source" });
    this.failedCalls = region.getByRole("checkbox", { name: "Failed calls" });
    this.overBudget = region.getByRole("checkbox", { name: "Over budget" });
    this.sort = region.getByRole("combobox", { name: "Sort" });
    this.count = region.getByRole("status");
    this.list = region.getByRole("list", { name: "Saved conversations" });
    this.rows = this.list.getByRole("listitem");
    this.nextPage = region.getByRole("link", { name: "Next page" });
    this.lastPage = region.getByRole("link", { name: "Last page" });
    this.firstPage = region.getByRole("link", { name: "First page" });
  }

  row(title: string | RegExp): Locator {
    return this.rows.filter({ has: this.list.page().getByRole("link", { name: title }) });
  }

  /** The total the count line states ("1–50 of 1,234 conversations"). */
  async total(): Promise<number> {
    const match = /of ([\d,]+)/.exec(await this.count.innerText());
    if (!match) throw new Error(`the count says no total: ${await this.count.innerText()}`);
    return Number(match[1].replaceAll(",", ""));
  }
}
