import { describe, expect, it } from "vitest";
import { importErrorOf } from "@/tests/fixtures/import/load";
import { parseConversations, parseConversationsAsync } from "./index";
import { readJsonlRecords } from "./jsonl";

// [IM-9] Long inputs are parsed and converted in slices; the result is the one of a single pass.
const turn = (index: number) => [
  { role: "user", content: `question ${index}` },
  { role: "assistant", content: null, tool_calls: [{ id: `call_${index}`, type: "function", function: { name: "look", arguments: "{}" } }] },
  { role: "tool", tool_call_id: `call_${index}`, content: `answer ${index}` },
  { role: "assistant", content: `done ${index}` },
];
const messages = Array.from({ length: 1_200 }, (_, index) => turn(index)).flat();

describe("slices", () => {
  it("[IM-9] a 4,800-message JSONL converts to the same messages as the JSON array read in one pass, with no warning", async () => {
    const whole = parseConversations(JSON.stringify(messages)).conversations[0];
    const sliced = await parseConversationsAsync(messages.map((message) => JSON.stringify(message)).join("\n"));
    expect(sliced.conversations[0].messages).toEqual(whole.messages);
    expect(sliced.conversations[0].messages).toHaveLength(4_800);
    expect(sliced.conversations[0].warnings).toEqual([]);
  });

  it("[IM-9] long lines make steps of their own: about a million characters, not 500 lines, between two points where the import may yield", () => {
    const text = Array.from({ length: 6 }, (_, index) => JSON.stringify({ role: "user", content: `${index} ${"w".repeat(600_000)}` })).join("\n");
    const steps = readJsonlRecords(text);
    let yields = 0;
    let next = steps.next();
    while (next.done !== true) {
      yields += 1;
      next = steps.next();
    }
    expect(next.value.records).toHaveLength(6);
    expect(yields).toBeGreaterThanOrEqual(5);
  });

  it("[IM-9] a problem in a later slice keeps its line, message index and path", () => {
    const broken = messages.map((message, index) => (index === 3_001 ? { ...message, role: "robot" } : message));
    const [issue] = importErrorOf(() => parseConversations(broken.map((message) => JSON.stringify(message)).join("\n"))).issues;
    expect(issue).toMatchObject({
      path: "[3001].role",
      line: 3_002,
      messageIndex: 3_001,
      message: 'unknown role "robot": expected system, user, assistant or tool',
    });
  });
});
