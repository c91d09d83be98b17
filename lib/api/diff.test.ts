import { describe, expect, it } from "vitest";
import { diffValues, diffValuesEqual, isEmptyDiff, joinDiffPath } from "./diff";

describe("diffValues", () => {
  it("reports added, updated and removed top-level keys", () => {
    expect(diffValues({ a: 1, b: "x", c: true }, { b: "y", c: true, d: null })).toEqual({
      added: { d: null },
      updated: { b: ["x", "y"] },
      removed: { a: 1 },
    });
  });

  it("recurses into nested objects with dotted paths", () => {
    const from = { budget: { tokens: 10, limit: 100, detail: { steps: 1 } }, mode: "copilot" };
    const to = { budget: { tokens: 12, limit: 100, detail: { steps: 1, last: "trim" } }, mode: "copilot" };
    expect(diffValues(from, to)).toEqual({
      added: { "budget.detail.last": "trim" },
      updated: { "budget.tokens": [10, 12] },
      removed: {},
    });
  });

  it("reports a key present on one side only whole, without paths below it", () => {
    expect(diffValues({}, { todo: { items: [1], done: false } })).toEqual({
      added: { todo: { items: [1], done: false } },
      updated: {},
      removed: {},
    });
    expect(diffValues({ todo: { items: [1] } }, {}).removed).toEqual({ todo: { items: [1] } });
  });

  it("reports a change of kind (object to scalar, array to object) as one update", () => {
    expect(diffValues({ a: { b: 1 } }, { a: 5 }).updated).toEqual({ a: [{ b: 1 }, 5] });
    expect(diffValues({ a: [1] }, { a: { 0: 1 } }).updated).toEqual({ a: [[1], { 0: 1 }] });
  });

  it("compares arrays whole by default", () => {
    const diff = diffValues({ todos: [{ id: 1, status: "open" }] }, { todos: [{ id: 1, status: "done" }] });
    expect(diff.updated).toEqual({ todos: [[{ id: 1, status: "open" }], [{ id: 1, status: "done" }]] });
  });

  it("descends into arrays by index when asked", () => {
    const diff = diffValues({ todos: [{ status: "open" }, "x"] }, { todos: [{ status: "done" }] }, { arrays: "index" });
    expect(diff).toEqual({ added: {}, updated: { "todos.0.status": ["open", "done"] }, removed: { "todos.1": "x" } });
  });

  it("ignores key order and reports nothing for equal values", () => {
    const diff = diffValues({ a: { x: 1, y: [1, { z: 2 }] } }, { a: { y: [1, { z: 2 }], x: 1 } });
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it("quotes keys a dot would make ambiguous", () => {
    expect(diffValues({ "a.b": { c: 1 } }, { "a.b": { c: 2 } }).updated).toEqual({ '["a.b"].c': [1, 2] });
    expect(joinDiffPath("x", "has space")).toBe('x["has space"]');
    expect(joinDiffPath("", "token_budget")).toBe("token_budget");
  });

  it("does not mutate its inputs", () => {
    const from = Object.freeze({ a: Object.freeze({ b: 1 }) });
    const to = Object.freeze({ a: Object.freeze({ b: 2 }) });
    expect(() => diffValues(from, to)).not.toThrow();
  });
});

describe("diffValuesEqual", () => {
  it("tells null from a missing key and arrays from objects", () => {
    expect(diffValuesEqual({ a: null }, {})).toBe(false);
    expect(diffValuesEqual([], {})).toBe(false);
    expect(diffValuesEqual([1, [2]], [1, [2]])).toBe(true);
  });
});
