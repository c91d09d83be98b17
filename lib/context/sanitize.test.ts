import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deepFreeze } from "./freeze";
import type { Message } from "./messages";
import { hasIntactToolPairs, sanitizeHistory } from "./sanitize";
import { brokenHistoryArbitrary, conversationArbitrary } from "./test-support/arbitraries";
import { answer, calls, result, system, toolCall, user } from "./test-support/conversation";

describe("sanitizeHistory", () => {
  it("[E-S1] returns a valid history as the same array, with no repairs", () => {
    const history = [system("s"), user("q"), calls(toolCall("a"), toolCall("b")), result("b", "rb"), result("a", "ra"), answer("done")];
    const sanitized = sanitizeHistory(history);
    expect(sanitized.history).toBe(history);
    expect(sanitized.repairs).toEqual([]);
  });

  it("[E-S1] pairs reused ids (call_0 turn after turn) with the nearest call message", () => {
    const history = [
      user("q1"),
      calls(toolCall("call_0", "get_user")),
      result("call_0", "user"),
      answer("a1"),
      user("q2"),
      calls(toolCall("call_0", "get_reservation")),
      result("call_0", "reservation"),
      calls(toolCall("call_0", "cancel")),
      result("call_0", "cancelled"),
      answer("a2"),
    ];
    const sanitized = sanitizeHistory(history);
    expect(sanitized.repairs).toEqual([]);
    expect(sanitized.history).toBe(history);
  });

  it("[E-S1] matches results positionally when one message repeats an id", () => {
    const history = [
      user("q"),
      calls(toolCall("call_0", "f"), toolCall("call_0", "g")),
      result("call_0", "f result"),
      result("call_0", "g result"),
      answer("a"),
    ];
    expect(sanitizeHistory(history)).toEqual({ history, repairs: [] });
  });

  it("[E-S1] drops a result with no call before it and names its index", () => {
    const history = [user("q"), result("call_9", "stray"), answer("a")];
    const { history: repaired, repairs } = sanitizeHistory(history);
    expect(repaired).toEqual([user("q"), answer("a")]);
    expect(repairs).toEqual([expect.objectContaining({ kind: "orphan-tool-result", index: 1, toolCallId: "call_9" })]);
    expect(repairs[0].message).toMatch(/^message 1: tool result 'call_9'/);
  });

  it("[E-S1] drops a result that answers no call of the message right before its block", () => {
    const history = [user("q"), calls(toolCall("a")), result("a", "ra"), result("zzz", "wrong id"), answer("done")];
    const { history: repaired, repairs } = sanitizeHistory(history);
    expect(repaired).toEqual([history[0], history[1], history[2], history[4]]);
    expect(repairs).toEqual([expect.objectContaining({ kind: "orphan-tool-result", index: 3, toolCallId: "zzz" })]);
  });

  it("[E-S1] does not let a result reach past another message to an earlier call", () => {
    const history = [user("q"), calls(toolCall("a")), user("hurry"), result("a", "late"), answer("done")];
    const { history: repaired, repairs } = sanitizeHistory(history);
    expect(repaired).toEqual([user("q"), user("hurry"), answer("done")]);
    expect(repairs.map((repair) => [repair.kind, repair.index])).toEqual([
      ["unanswered-tool-call", 1],
      ["empty-assistant-dropped", 1],
      ["orphan-tool-result", 3],
    ]);
  });

  it("[E-S1] drops an extra result for an already answered call", () => {
    const history = [user("q"), calls(toolCall("a")), result("a", "first"), result("a", "again"), answer("done")];
    const { history: repaired, repairs } = sanitizeHistory(history);
    expect(repaired.map((message) => message.content)).toEqual(["q", null, "first", "done"]);
    expect(repairs).toEqual([expect.objectContaining({ kind: "duplicate-tool-result", index: 3, toolCallId: "a" })]);
  });

  it("[E-S1] removes a call that never got a result and keeps the message's other answered calls", () => {
    const history = [user("q"), calls(toolCall("a", "f"), toolCall("b", "g")), result("a", "ra"), answer("done")];
    const { history: repaired, repairs } = sanitizeHistory(history);
    expect(repaired[1].tool_calls).toEqual([toolCall("a", "f")]);
    expect(repaired[2]).toBe(history[2]);
    expect(repairs).toEqual([expect.objectContaining({ kind: "unanswered-tool-call", index: 1, toolCallId: "b" })]);
    expect(repairs[0].message).toContain("'b' (g)");
  });

  it("[E-S1] keeps an assistant message with content when all its calls are removed", () => {
    const history = [user("q"), { role: "assistant" as const, content: "Let me check.", tool_calls: [toolCall("a")] }, user("?")];
    const { history: repaired, repairs } = sanitizeHistory(history);
    expect(repaired[1]).toEqual({ role: "assistant", content: "Let me check." });
    expect(repaired[1]).not.toHaveProperty("tool_calls");
    expect(repairs.map((repair) => repair.kind)).toEqual(["unanswered-tool-call"]);
  });

  it("[E-S1] drops an assistant message with nothing left", () => {
    const history = [user("q"), calls(toolCall("a")), answer("gave up")];
    const { history: repaired, repairs } = sanitizeHistory(history);
    expect(repaired).toEqual([user("q"), answer("gave up")]);
    expect(repairs.map((repair) => [repair.kind, repair.index])).toEqual([
      ["unanswered-tool-call", 1],
      ["empty-assistant-dropped", 1],
    ]);
  });

  it("[E-S1] removes calls still awaiting results at the end by default", () => {
    const history = [user("q"), calls(toolCall("a"))];
    expect(sanitizeHistory(history).history).toEqual([user("q")]);
    expect(hasIntactToolPairs(history)).toBe(false);
  });

  it("[E-S1] allowPendingToolCalls keeps the calls at the very end that await their results", () => {
    const history = [user("q"), calls(toolCall("a"), toolCall("b"))];
    expect(sanitizeHistory(history, { allowPendingToolCalls: true })).toEqual({ history, repairs: [] });
    expect(hasIntactToolPairs(history, { allowPendingToolCalls: true })).toBe(true);
  });

  it("[E-S1] allowPendingToolCalls keeps parallel calls at the end when only some results have come", () => {
    const history = [user("q"), calls(toolCall("a"), toolCall("b"), toolCall("c")), result("a", "ra")];
    const sanitized = sanitizeHistory(history, { allowPendingToolCalls: true });
    expect(sanitized.repairs).toEqual([]);
    expect(sanitized.history).toBe(history);
  });

  it("[E-S1] allowPendingToolCalls still repairs unanswered calls that are not at the end", () => {
    const history = [user("q"), calls(toolCall("a")), user("q2")];
    expect(sanitizeHistory(history, { allowPendingToolCalls: true }).repairs.map((repair) => repair.kind)).toContain("unanswered-tool-call");
  });

  it("[E-S1] never changes the messages it was given", () => {
    const history = deepFreeze([user("q"), calls(toolCall("a"), toolCall("b")), result("a", "ra"), result("x", "stray"), answer("done")]);
    const copy = structuredClone(history);
    expect(() => sanitizeHistory(history)).not.toThrow();
    expect(history).toEqual(copy);
  });
});

describe("hasIntactToolPairs", () => {
  it("[E-P1] is true only when every result answers the call right before it and every call is answered", () => {
    expect(hasIntactToolPairs([user("q"), calls(toolCall("a")), result("a", "r"), answer("a")])).toBe(true);
    expect(hasIntactToolPairs([user("q"), result("a", "r")])).toBe(false);
    expect(hasIntactToolPairs([user("q"), calls(toolCall("a")), system("x"), result("a", "r")])).toBe(false);
    expect(hasIntactToolPairs([])).toBe(true);
  });
});

describe("sanitizeHistory properties", () => {
  const isRepairedCopy = (output: Message, input: readonly Message[]) =>
    input.some(
      (candidate) =>
        candidate.role === "assistant" &&
        candidate.content === output.content &&
        (output.tool_calls ?? []).every((call) => candidate.tool_calls?.includes(call)),
    );

  it("[E-S1] leaves every generated valid conversation untouched (same array)", () => {
    fc.assert(
      fc.property(conversationArbitrary, (history) => {
        const sanitized = sanitizeHistory(history);
        expect(sanitized.repairs).toEqual([]);
        expect(sanitized.history).toBe(history);
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it("[E-S1][E-P1] repairs any broken history into one with intact tool pairs, idempotently", () => {
    fc.assert(
      fc.property(brokenHistoryArbitrary, (broken) => {
        const { history, repairs, sources } = sanitizeHistory(broken);
        expect(hasIntactToolPairs(history)).toBe(true);
        const again = sanitizeHistory(history);
        expect(again.repairs).toEqual([]);
        expect(again.history).toBe(history);
        // Only drops and moves: every message left is an input message or a trimmed copy of an assistant one.
        expect(history.length).toBeLessThanOrEqual(broken.length);
        if (repairs.length > 0) expect(sources?.map((source) => broken[source].role)).toEqual(history.map((message) => message.role));
        for (const message of history) expect(broken.includes(message) || isRepairedCopy(message, broken)).toBe(true);
        for (const repair of repairs) {
          expect(repair.index).toBeGreaterThanOrEqual(0);
          expect(repair.index).toBeLessThan(broken.length);
          expect(repair.message).toMatch(new RegExp(`^message ${repair.index}: `));
          const role =
            repair.kind === "orphan-tool-result" || repair.kind === "duplicate-tool-result"
              ? "tool"
              : repair.kind === "interleaved-message-moved"
                ? "system"
                : "assistant";
          expect(broken[repair.index].role).toBe(role);
        }
        if (repairs.length === 0) expect(history).toBe(broken);
      }),
      { numRuns: 500 },
    );
  }, 60_000);

  it("[E-S1.1] moves a system message that stands between calls and their results after the results", () => {
    const history: Message[] = [
      user("go"),
      calls(toolCall("call_1", "read"), toolCall("call_2", "list")),
      system("memory rebuilt"),
      result("call_1", "a"),
      system("developer note"),
      result("call_2", "b"),
      answer("done"),
    ];
    const { history: repaired, repairs, sources } = sanitizeHistory(deepFreeze(history));
    expect(repaired.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "system", "system", "assistant"]);
    expect(sources).toEqual([0, 1, 3, 5, 2, 4, 6]);
    expect(repairs.map((repair) => [repair.kind, repair.index])).toEqual([
      ["interleaved-message-moved", 2],
      ["interleaved-message-moved", 4],
    ]);
    expect(hasIntactToolPairs(repaired)).toBe(true);
  });

  it("[E-S1.1] leaves a message after the results where it is, and still drops an unanswered call", () => {
    const history: Message[] = [user("go"), calls(toolCall("call_1", "read")), user("next"), answer("done")];
    const { history: repaired, repairs, sources } = sanitizeHistory(history);
    expect(repairs.map((repair) => repair.kind)).toEqual(["unanswered-tool-call", "empty-assistant-dropped"]);
    expect(repaired.map((message) => message.content)).toEqual(["go", "next", "done"]);
    expect(sources).toEqual([0, 2, 3]);
  });
});
