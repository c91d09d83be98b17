import { describe, expect, it } from "vitest";
import { ImportError, formatImportIssue } from "./index";

describe("ImportError", () => {
  it("is recognised across bundles by its Symbol.for marker", () => {
    const error = new ImportError([{ message: "m", path: "" }]);
    expect(ImportError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ImportError");
    const foreign = { [Symbol.for("context-lab.error.import")]: true };
    expect(ImportError.isInstance(foreign)).toBe(true);
    expect(ImportError.isInstance(new Error("m"))).toBe(false);
    expect(ImportError.isInstance(null)).toBe(false);
  });

  it("says what and where in its message", () => {
    const error = new ImportError([
      { message: "a tool message needs a string tool_call_id", path: "messages[14].tool_call_id", line: 212, column: 5, messageIndex: 14 },
    ]);
    expect(error.message).toBe("could not import: line 212, message 14 (messages[14].tool_call_id): a tool message needs a string tool_call_id");
  });
});

describe("formatImportIssue", () => {
  it.each([
    [{ message: "m", path: "" }, "m"],
    [{ message: "m", path: "", line: 3, column: 17 }, "line 3, column 17: m"],
    [{ message: "m", path: "tools[0].function.name", line: 9, column: 5 }, "line 9 (tools[0].function.name): m"],
    [
      { message: "m", path: "[3].traj[7].role", line: 40, column: 7, messageIndex: 7, conversationIndex: 3 },
      "line 40, conversation 3, message 7 ([3].traj[7].role): m",
    ],
    [{ message: "m", path: "messages" }, "messages: m"],
  ])("renders %j", (issue, text) => {
    expect(formatImportIssue(issue)).toBe(text);
  });
});
