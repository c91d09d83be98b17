import { describe, expect, it } from "vitest";
import { BudgetExceededError, CheckpointError, ContextError, ProcessorError } from "./errors";

/** What a second copy of the engine (a Web Worker bundle) would throw: same markers, different classes. */
function foreignError(...markers: string[]): Error {
  const error = new Error("from another bundle");
  for (const marker of markers) Object.defineProperty(error, Symbol.for(marker), { value: true });
  return error;
}

describe("engine errors", () => {
  it("[E-1] form a hierarchy under ContextError with names", () => {
    const cause = new Error("boom");
    const errors = [
      new ContextError("x"),
      new ProcessorError("round_window", "pre_llm_call", cause),
      new CheckpointError("y"),
      new BudgetExceededError(100, 120),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(ContextError);
      expect(ContextError.isInstance(error)).toBe(true);
    }
    expect(errors.map((error) => error.name)).toEqual(["ContextError", "ProcessorError", "CheckpointError", "BudgetExceededError"]);
  });

  it("[E-1] isInstance tells the classes apart", () => {
    expect(ProcessorError.isInstance(new ContextError("x"))).toBe(false);
    expect(CheckpointError.isInstance(new ProcessorError("p", "pre_llm_call", "x"))).toBe(false);
    expect(BudgetExceededError.isInstance(new CheckpointError("x"))).toBe(false);
    for (const value of [new Error("plain"), null, undefined, "ContextError", 42, {}]) expect(ContextError.isInstance(value)).toBe(false);
  });

  it("[E-1] isInstance holds across bundles through the Symbol.for markers", () => {
    const foreignBudget = foreignError("context-lab.error.context", "context-lab.error.budget");
    expect(foreignBudget).not.toBeInstanceOf(ContextError);
    expect(ContextError.isInstance(foreignBudget)).toBe(true);
    expect(BudgetExceededError.isInstance(foreignBudget)).toBe(true);
    expect(ProcessorError.isInstance(foreignBudget)).toBe(false);
    expect(ProcessorError.isInstance(foreignError("context-lab.error.context", "context-lab.error.processor"))).toBe(true);
    expect(CheckpointError.isInstance(foreignError("context-lab.error.checkpoint"))).toBe(true);
    expect(ContextError.isInstance({ [Symbol.for("context-lab.error.context")]: true })).toBe(true);
    expect(ContextError.isInstance({ [Symbol("context-lab.error.context")]: true })).toBe(false);
  });

  it("ProcessorError names the processor and event and keeps the cause", () => {
    const cause = new TypeError("bad history");
    const error = new ProcessorError("summarize", "pre_llm_call", cause);
    expect(error).toMatchObject({ processor: "summarize", event: "pre_llm_call", cause, where: "summarize" });
    expect(error.message).toBe("processor 'summarize' failed on 'pre_llm_call': bad history");
    expect(new ProcessorError("p", "post_tool_call", "text").message).toContain("text");
  });

  it("BudgetExceededError carries budget and tokens", () => {
    const error = new BudgetExceededError(2000, 2345);
    expect(error).toMatchObject({ budget: 2000, tokens: 2345 });
    expect(error.message).toContain("2345");
    expect(error.message).toContain("2000");
  });

  it("ContextError keeps where and cause", () => {
    const cause = new Error("inner");
    expect(new ContextError("outer", { cause, where: "history[3]" })).toMatchObject({ cause, where: "history[3]", message: "outer" });
    expect("cause" in new ContextError("no cause")).toBe(false);
  });
});
