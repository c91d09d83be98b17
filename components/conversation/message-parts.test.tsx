import fs from "node:fs";
import path from "node:path";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readRequest } from "@/lib/formats";
import { useScreenLayout } from "@/tests/support/screen-layout";
import { ConversationView } from "./conversation-view";

afterEach(cleanup);
useScreenLayout();

const fixture = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "..", "tests", "fixtures", "formats", name), "utf8")) as unknown;

function show(name: string, format: "anthropic" | "openai-chat") {
  const { messages } = readRequest(format, fixture(name));
  render(
    <ConversationView
      label="Conversation"
      messages={messages}
      selected={null}
      hoveredCall={null}
      onSelect={vi.fn()}
      onHoverCall={vi.fn()}
      onOpenHandle={vi.fn()}
    />,
  );
  return (index: number) => screen.getByRole("listitem", { name: new RegExp(`^Message ${index},`) });
}

describe("message parts in the conversation view", () => {
  it("shows thinking collapsed, opens it, and names redacted thinking and signatures", () => {
    const row = show("anthropic-thinking-image-document.json", "anthropic");
    const assistant = row(2);
    const thinking = within(assistant)
      .getByText(/^Thinking · ≈\d+ tok/)
      .closest("details")!;
    expect(thinking.open).toBe(false);
    expect(within(thinking).getByText(/signed \(sent back as is\)/)).toBeTruthy();
    fireEvent.click(within(thinking).getByText(/^Thinking/));
    expect(within(assistant).getByText(/^Redacted thinking/)).toBeTruthy();
    expect(within(assistant).getByText("I'll check the current weather in Paris for you.")).toBeTruthy();
  });

  it("shows images as thumbnails, documents as badges, each with its token cost, and cache marks", () => {
    const row = show("anthropic-thinking-image-document.json", "anthropic");
    const user = row(1);
    const image = within(user).getByRole("img") as HTMLImageElement;
    expect(image.src.startsWith("data:image/png;base64,")).toBe(true);
    // A 1×1 PNG by OpenAI's tile rule: one tile.
    expect(within(user).getByText("255 tok")).toBeTruthy();
    expect(within(user).getByText("document · contract.pdf")).toBeTruthy();
    expect(within(user).getByText("≈1,500 tok")).toBeTruthy();
    expect(within(user).getByTitle("Prompt-cache breakpoint after this document")).toBeTruthy();
    expect(within(row(0)).getByTitle("Prompt-cache breakpoint after this message")).toBeTruthy();
  });

  it("shows a provider's own tool blocks, audio, and a refusal", () => {
    expect(within(show("anthropic-thinking-image-document.json", "anthropic")(4)).getByText(/^server_tool_use · web_search/)).toBeTruthy();
    cleanup();
    const row = show("openai-chat-multimodal.json", "openai-chat");
    expect(within(row(3)).getByText("audio")).toBeTruthy();
    expect(row(4).textContent).toContain("Refused: I can't process the audio in this context.");
    expect(within(row(1)).getByText(/^image · high detail/)).toBeTruthy();
    expect(within(row(1)).getByText("≈765 tok")).toBeTruthy();
  });
});
