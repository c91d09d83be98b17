import { expect, type Locator, type Page } from "@playwright/test";

/** The Compare tab of the workspace. */
export class ComparePage {
  readonly table: Locator;
  readonly compareButton: Locator;
  readonly progress: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole("table", { name: "Comparison totals" });
    this.compareButton = page.getByRole("button", { name: "Compare", exact: true });
    this.progress = page.getByRole("progressbar", { name: "Comparison progress" });
  }

  slot(index: number): Locator {
    return this.page.getByRole("combobox", { name: `Policy ${index}` });
  }

  async run(): Promise<void> {
    await expect(this.compareButton).toBeEnabled();
    await this.compareButton.click();
    await expect(this.table).toBeVisible({ timeout: 60_000 });
  }

  /** A chart legend's figure per run label, as the legend states it (`data-value`). */
  async legend(chart: string): Promise<Map<string, number>> {
    const items = this.page.getByRole("list", { name: `${chart} legend` }).getByRole("listitem");
    const figures = new Map<string, number>();
    for (const item of await items.all()) {
      const label = (await item.innerText()).split(":")[0].trim();
      figures.set(label, Number(await item.getAttribute("data-value")));
    }
    return figures;
  }

  /** A table column's text per run label. */
  async column(header: string): Promise<Map<string, string>> {
    const headers = await this.table.getByRole("columnheader").allInnerTexts();
    const index = headers.findIndex((text) => text.replace(/[↑↓]/g, "").trim() === header);
    const cells = new Map<string, string>();
    for (const row of await this.table.getByRole("row").all()) {
      const name = row.getByRole("rowheader");
      if ((await name.count()) === 0) continue;
      const label = (await name.innerText()).replace(/cheapest$/, "").trim();
      cells.set(label, await row.locator("th, td").nth(index).innerText());
    }
    return cells;
  }
}
