import type { Locator, Page } from "@playwright/test";

/** `/`: the import box, the saved conversations and the example. */
export class HomePage {
  readonly conversation: Locator;
  readonly importAndOpen: Locator;
  readonly fileInput: Locator;
  readonly error: Locator;
  readonly saved: Locator;
  readonly loadExample: Locator;

  constructor(private readonly page: Page) {
    this.conversation = page.getByLabel(/^Conversation \(/);
    this.importAndOpen = page.getByRole("button", { name: "Import and open" });
    this.fileInput = page.getByLabel("Open a conversation file");
    this.error = page.getByRole("alert", { name: "Import error" });
    this.saved = page.getByRole("list", { name: "Saved conversations" });
    this.loadExample = page.getByRole("button", { name: "Load an example" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/");
  }

  savedConversation(title: string | RegExp): Locator {
    return this.saved.getByRole("listitem").filter({ hasText: title });
  }

  /** Drops a file on the import box the way a browser does: a `drop` event carrying a DataTransfer with the file. */
  async dropFile(name: string, content: string, type = "application/json"): Promise<void> {
    const transfer = await this.page.evaluateHandle(
      ({ name, content, type }) => {
        const data = new DataTransfer();
        data.items.add(new File([content], name, { type }));
        return data;
      },
      { name, content, type },
    );
    await this.conversation.dispatchEvent("dragover", { dataTransfer: transfer });
    await this.conversation.dispatchEvent("drop", { dataTransfer: transfer });
  }
}
