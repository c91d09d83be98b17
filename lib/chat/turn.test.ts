import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context/light";
import { assistant, toolCall, toolResult, user } from "@/tests/support/memory-fixtures";
import { RecorderError } from "./errors";
import { turnMessages } from "./turn";
import { pendingToolCalls } from "./types";

describe("turnMessages", () => {
  const calling = [
    user("Look up two reservations"),
    {
      ...toolCall("a", "lookup", { id: 1 }),
      tool_calls: [...toolCall("a", "lookup", { id: 1 }).tool_calls!, ...toolCall("b", "lookup", { id: 2 }).tool_calls!],
    },
  ];

  it("puts results in the order of the calls they answer, then the user turn", () => {
    expect(
      turnMessages(calling, {
        toolResults: [
          { tool_call_id: "b", content: "2" },
          { tool_call_id: "a", content: "1" },
        ],
        userTurn: "thanks",
      }),
    ).toEqual([toolResult("a", "1"), toolResult("b", "2"), user("thanks")]);
  });

  it("refuses a partial answer, a duplicate, a stray result and an empty request, naming the field", () => {
    const refused = (input: Parameters<typeof turnMessages>[1], history = calling) => {
      try {
        turnMessages(history, input);
      } catch (error) {
        if (RecorderError.isInstance(error)) return { status: error.status, code: error.code, paths: error.issues?.map((issue) => issue.path) };
        throw error;
      }
      return null;
    };
    expect(refused({ toolResults: [{ tool_call_id: "a", content: "1" }] })).toEqual({ status: 422, code: "tool_results_mismatch", paths: ["toolResults"] });
    expect(
      refused({
        toolResults: [
          { tool_call_id: "a", content: "1" },
          { tool_call_id: "a", content: "1" },
        ],
      }),
    ).toMatchObject({ paths: ["toolResults[1].tool_call_id"] });
    expect(refused({ toolResults: [{ tool_call_id: "z", content: "1" }] }, [user("hi"), assistant("hello")])).toMatchObject({
      paths: ["toolResults[0].tool_call_id"],
    });
    expect(refused({})).toMatchObject({ code: "nothing_to_answer", paths: ["toolResults"] });
    expect(refused({}, [user("hi"), assistant("hello")])).toMatchObject({ code: "nothing_to_answer", paths: ["userTurn"] });
    expect(turnMessages([user("hi")], {})).toEqual([]);
  });
});

describe("pendingToolCalls", () => {
  it("lists the last assistant message's calls without results", () => {
    const call = toolCall("a", "lookup", {});
    expect(pendingToolCalls([user("x"), call])).toEqual(call.tool_calls);
    expect(pendingToolCalls([user("x"), call, toolResult("a", "1")])).toEqual([]);
    expect(pendingToolCalls([user("x"), call, toolResult("a", "1"), user("y")])).toEqual([]);
    expect(pendingToolCalls([])).toEqual([]);
  });

  it("[E-P2] a call id repeated within the message waits once per call, paired by position", () => {
    const twice: Message = {
      ...toolCall("call_0", "lookup", {}),
      tool_calls: [...toolCall("call_0", "lookup", {}).tool_calls!, ...toolCall("call_0", "cancel", {}).tool_calls!],
    };
    expect(pendingToolCalls([user("x"), twice, toolResult("call_0", "1")]).map((call) => call.function.name)).toEqual(["cancel"]);
    expect(pendingToolCalls([user("x"), twice, toolResult("call_0", "1"), toolResult("call_0", "2")])).toEqual([]);
  });
});
