import { describe, expect, it } from "vitest";
import { BudgetExceededError, ContextError, ProcessorError } from "./errors";
import { MarkedError } from "./marked-error";

describe("MarkedError", () => {
  it("[E-1] a subclass is an instance of itself and its bases, not of its siblings", () => {
    const error = new ProcessorError("offloader", "pre_llm_call", new Error("boom"));
    expect(ProcessorError.isInstance(error)).toBe(true);
    expect(ContextError.isInstance(error)).toBe(true);
    expect(MarkedError.isInstance(error)).toBe(true);
    expect(BudgetExceededError.isInstance(error)).toBe(false);
    expect(ContextError.isInstance(new Error("plain"))).toBe(false);
    expect(ContextError.isInstance("ContextError")).toBe(false);
    expect(error.name).toBe("ProcessorError");
  });

  it("[E-1] holds for an error made by another copy of the module, where instanceof fails", () => {
    // Another bundle's copy: a class of its own, with the same marker.
    class OtherCopy extends MarkedError {
      static override readonly marker: symbol = Symbol.for("context-lab.error.context");
    }
    const foreign = new OtherCopy("from the worker");
    expect(foreign instanceof ContextError).toBe(false);
    expect(ContextError.isInstance(foreign)).toBe(true);
  });

  it("[E-1] the guard works unbound, as a callback", () => {
    const errors: unknown[] = [new BudgetExceededError(10, 12), new Error("plain"), new ContextError("bad")];
    expect(errors.filter(ContextError.isInstance)).toHaveLength(2);
    expect(errors.filter(BudgetExceededError.isInstance)).toEqual([errors[0]]);
  });
});
