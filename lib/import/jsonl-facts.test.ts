// A JSONL export keeps each message's facts on its line, and importing it brings them back (IM-13).
import { describe, expect, it } from "vitest";
import { readFixture } from "@/tests/fixtures/import/load";
import { parseConversations, serializeConversation } from "./index";

describe("JSONL facts", () => {
  const [session] = parseConversations(readFixture("formats/claude-code-2.0.76-compaction.jsonl")).conversations;

  it("[IM-13][IM-10] an exported session's JSONL carries every message's time, model and usage, and its import reads them back", () => {
    const { text } = serializeConversation(session.messages, "jsonl", { facts: session.facts });
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { facts?: { at?: string } });
    expect(lines.every((line) => typeof line.facts?.at === "string")).toBe(true);
    const [back] = parseConversations(text).conversations;
    expect(back.messages).toEqual(session.messages);
    expect(back.facts).toEqual(session.facts);
  });

  it("[IM-13] lines without facts import as before", () => {
    const { text } = serializeConversation(session.messages, "jsonl");
    expect(text).not.toContain('"facts"');
    expect(parseConversations(text).conversations[0].facts).toBeUndefined();
  });
});
