import type { Locator, Page } from "@playwright/test";

/** The paste box on `/` and what it shows. */
export class PasteInspectorPage {
  readonly conversation: Locator;
  readonly mode: Locator;
  readonly budget: Locator;
  readonly run: Locator;
  readonly trace: Locator;
  readonly processedHistory: Locator;
  readonly error: Locator;

  constructor(private readonly page: Page) {
    this.conversation = page.getByLabel(/^Conversation/);
    this.mode = page.getByLabel("Mode");
    this.budget = page.getByLabel("Token budget");
    this.run = page.getByRole("button", { name: "Run pipeline" });
    this.trace = page.getByRole("table", { name: "Pipeline trace" });
    this.processedHistory = page.getByRole("list", { name: "Processed history" });
    this.error = page.getByRole("alert", { name: "Import error" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/");
  }

  async paste(text: string): Promise<void> {
    await this.conversation.fill(text);
  }

  traceRow(processor: string): Locator {
    return this.trace.getByRole("row", { name: new RegExp(`^${processor}\\b`) });
  }
}
