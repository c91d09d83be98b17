import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MessageRecord } from "@/lib/db";
import { useScreenLayout } from "@/tests/support/screen-layout";
import { ConversationView } from "./conversation-view";
import { rowFactsOf } from "./row-facts";

afterEach(cleanup);
useScreenLayout();

const record = (position: number, damaged?: string[]): MessageRecord => ({
  id: `m${position}`,
  branchId: "b",
  position,
  tokens: 3,
  createdAt: "2026-01-01T00:00:00.000Z",
  metadata: null,
  message: { role: position === 0 ? "user" : "assistant", content: `message ${position}` },
  ...(damaged ? { damaged } : {}),
});

describe("damaged rows", () => {
  it("[IN-6] a row whose stored data could not be read says so, and names what was left out", () => {
    const records = [record(0), record(1, ["toolCalls must be an array of tool calls"])];
    const facts = rowFactsOf(records, [0, 1]);
    expect(facts).toEqual([undefined, { damaged: ["toolCalls must be an array of tool calls"] }]);
    render(
      <ConversationView
        label="Conversation"
        messages={records.map((item) => item.message)}
        facts={facts}
        selected={null}
        hoveredCall={null}
        onSelect={vi.fn()}
        onHoverCall={vi.fn()}
      />,
    );
    const note = screen.getByRole("note", { name: "Message 1 is damaged" });
    expect(note.textContent).toContain("toolCalls must be an array of tool calls");
    expect(screen.queryByRole("note", { name: "Message 0 is damaged" })).toBeNull();
  });
});
