import { describe, expect, it } from "vitest";
import { toolUses } from "./processors/strategy-support";
import { sanitizeHistory } from "./sanitize";
import { answer, calls, result, system, toolCall, user } from "./test-support/conversation";
import { pairToolCalls } from "./tool-pairs";

describe("pairToolCalls", () => {
  it("[E-P2] pairs an id reused turn after turn with the call message that opens its block", () => {
    const history = [
      user("q1"),
      calls(toolCall("call_0", "get_user")),
      result("call_0", "user"),
      answer("a1"),
      user("q2"),
      calls(toolCall("call_0", "get_reservation")),
      result("call_0", "reservation"),
    ];
    expect(pairToolCalls(history).pairs).toEqual([
      { callAt: 1, callOrdinal: 0, resultAt: 2 },
      { callAt: 5, callOrdinal: 0, resultAt: 6 },
    ]);
  });

  it("[E-P2] pairs an id repeated within one message by position, and a third result with that id is an extra", () => {
    const history = [user("q"), calls(toolCall("call_0", "f"), toolCall("call_0", "g")), result("call_0", "g"), result("call_0", "f"), result("call_0", "?")];
    const pairing = pairToolCalls(history);
    expect(pairing.pairs).toEqual([
      { callAt: 1, callOrdinal: 0, resultAt: 2 },
      { callAt: 1, callOrdinal: 1, resultAt: 3 },
    ]);
    expect(pairing.unpaired).toEqual([{ at: 4, callAt: 1, duplicate: true }]);
    expect(toolUses(history).map((use) => use.name)).toEqual(["f", "g"]);
  });

  it("[E-P2][E-S1.1] a system message before results of the block belongs to it; a user message ends it", () => {
    const history = [user("q"), calls(toolCall("a"), toolCall("b")), result("a", "1"), system("note"), result("b", "2"), user("next"), result("a", "late")];
    const pairing = pairToolCalls(history);
    expect(pairing.blocks).toEqual([{ at: 1, resultAt: [2, 4], interleaved: [3], end: 5 }]);
    expect(pairing.unpaired).toEqual([{ at: 6, callAt: null, duplicate: false }]);
  });

  it("[E-P2] a block the history ends in is open: its unanswered calls wait", () => {
    const history = [user("q"), calls(toolCall("a"), toolCall("a")), result("a", "1")];
    const [block] = pairToolCalls(history).blocks;
    expect(block).toEqual({ at: 1, resultAt: [2, -1], interleaved: [], end: 3 });
    expect(sanitizeHistory(history, { allowPendingToolCalls: true }).history).toBe(history);
    expect(sanitizeHistory(history).history[1].tool_calls).toHaveLength(1);
  });

  it("[E-P2] a result of an id its block has not called answers nothing", () => {
    const history = [user("q"), calls(toolCall("a")), result("b", "1"), result("a", "2"), answer("done")];
    const pairing = pairToolCalls(history);
    expect(pairing.unpaired).toEqual([{ at: 2, callAt: 1, duplicate: false }]);
    expect(pairing.pairs).toEqual([{ callAt: 1, callOrdinal: 0, resultAt: 3 }]);
  });
});
