import type { Locator, Page } from "@playwright/test";

/** `/agents`: the sessions of the coding agents on this machine. */
export class LocalAgentsPage {
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole("table", { name: "Sessions on this machine" });
  }

  async open(): Promise<void> {
    await this.page.goto("/agents");
  }

  /** The row of a session file, by its file name. */
  row(fileName: string): Locator {
    return this.table.getByRole("row").filter({ hasText: fileName });
  }

  follow(fileName: string): Locator {
    return this.page.getByRole("button", { name: `Follow ${fileName}` });
  }

  importButton(fileName: string): Locator {
    return this.page.getByRole("button", { name: `Import ${fileName}` });
  }
}
