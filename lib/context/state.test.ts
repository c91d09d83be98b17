import { describe, expect, it } from "vitest";
import { deepCopy, deepFreeze } from "./freeze";
import type { Message } from "./messages";
import { ContextState, STATE_KEYS } from "./state";
import { answer, user } from "./test-support/conversation";

describe("ContextState", () => {
  it("[S2] reads through the parent chain", () => {
    const root = new ContextState({ a: 1 });
    const middle = new ContextState({ b: 2 }, root);
    const leaf = new ContextState({}, middle);
    expect(leaf.get("a")).toBe(1);
    expect(leaf.get("b")).toBe(2);
    expect(leaf.get("missing")).toBeUndefined();
    expect(leaf.getOr("missing", "fallback")).toBe("fallback");
    expect(leaf.has("a")).toBe(true);
  });

  it("[S2] writes locally: the parent never sees a child's set", () => {
    const parent = new ContextState({ a: 1 });
    const child = new ContextState({}, parent);
    child.set("a", 2);
    child.set("b", 3);
    expect(child.get("a")).toBe(2);
    expect(parent.get("a")).toBe(1);
    expect(parent.has("b")).toBe(false);
    expect(child.localKeys().sort()).toEqual(["a", "b"]);
    expect(child.isLocal("a")).toBe(true);
    expect(parent.localKeys()).toEqual(["a"]);
  });

  it("[S2] a local delete hides an inherited value in the child only", () => {
    const parent = new ContextState({ a: 1, b: 2 });
    const child = new ContextState({}, parent);
    child.delete("a");
    expect(child.get("a")).toBeUndefined();
    expect(child.has("a")).toBe(false);
    expect(parent.get("a")).toBe(1);
    expect(child.deletedKeys()).toEqual(["a"]);
    expect(child.isLocal("a")).toBe(false);
    expect(child.toObject()).toEqual({ b: 2 });
    expect(child.localObject()).toEqual({});
  });

  it("[S2] deleting a key only the child holds removes it outright", () => {
    const child = new ContextState({}, new ContextState());
    child.set("x", 1);
    child.delete("x");
    expect(child.localKeys()).toEqual([]);
    expect(child.deletedKeys()).toEqual([]);
  });

  it("[S2] toObject is the merged view, localObject only this level", () => {
    const parent = new ContextState({ a: 1, b: 2 });
    const child = new ContextState({ b: 20, c: 30 }, parent);
    expect(child.toObject()).toEqual({ a: 1, b: 20, c: 30 });
    expect(child.localObject()).toEqual({ b: 20, c: 30 });
  });

  it("[S2] a state without children keeps its values unfrozen", () => {
    const state = new ContextState();
    const history: Message[] = [user("q"), answer("a")];
    state.set(STATE_KEYS.history, history);
    expect(state.isSealed).toBe(false);
    expect(Object.isFrozen(state.get(STATE_KEYS.history))).toBe(false);
  });

  it("[S2] creating a child seals the parent and its ancestors: values deep-frozen now and when set later", () => {
    const root = new ContextState({ history: [user("q")] });
    const parent = new ContextState({ notes: { list: ["a"] } }, root);
    new ContextState({}, parent);
    expect(parent.isSealed).toBe(true);
    expect(root.isSealed).toBe(true);
    const history = root.get(STATE_KEYS.history) as Message[];
    expect(Object.isFrozen(history)).toBe(true);
    expect(Object.isFrozen(history[0])).toBe(true);
    expect(Object.isFrozen((parent.get("notes") as { list: string[] }).list)).toBe(true);
    parent.set("later", { nested: [1] });
    expect(Object.isFrozen((parent.get("later") as { nested: number[] }).nested)).toBe(true);
  });

  it("[S2] a child mutating an inherited history throws and the parent is unchanged", () => {
    const parent = new ContextState();
    parent.set(STATE_KEYS.history, [user("q"), answer("a")]);
    const child = new ContextState({}, parent);
    const inherited = child.get(STATE_KEYS.history) as Message[];
    expect(() => inherited.push(user("sneaky"))).toThrow(TypeError);
    expect(() => {
      inherited[0].content = "rewritten";
    }).toThrow(TypeError);
    expect(() => inherited.splice(0, 1)).toThrow(TypeError);
    expect(parent.get(STATE_KEYS.history)).toEqual([user("q"), answer("a")]);
  });

  it("[S2] deep-freezes messages inside an array that was frozen only on the outside", () => {
    const parent = new ContextState();
    const message = user("q");
    parent.set(STATE_KEYS.history, Object.freeze([message]));
    const child = new ContextState({}, parent);
    const inherited = child.get(STATE_KEYS.history) as Message[];
    expect(() => {
      inherited[0].content = "rewritten";
    }).toThrow(TypeError);
    expect((parent.get(STATE_KEYS.history) as Message[])[0].content).toBe("q");
  });

  it("[S2] refuses undefined: delete is the way to remove", () => {
    expect(() => new ContextState().set("a", undefined as unknown as number)).toThrow(/delete/);
  });

  it("[S3] names the well-known keys exactly", () => {
    expect(Object.values(STATE_KEYS).sort()).toEqual(
      ["history", "needs_summary", "offloaded_messages", "offloaded_results", "summary_candidates", "token_budget_exceeded", "token_budget_trimmed"].sort(),
    );
  });
});

describe("deepFreeze / deepCopy", () => {
  it("[S2] freezes nested plain data and leaves primitives alone", () => {
    const value = deepFreeze({ a: [{ b: 1 }], c: "x" });
    expect(Object.isFrozen(value.a[0])).toBe(true);
    expect(deepFreeze(5)).toBe(5);
    expect(deepFreeze(null)).toBe(null);
  });

  it("[K2] deepCopy gives an equal, independent, unfrozen copy", () => {
    const original = deepFreeze({ history: [user("q")] });
    const copy = deepCopy(original);
    expect(copy).toEqual(original);
    expect(copy.history).not.toBe(original.history);
    copy.history[0].content = "changed";
    expect(original.history[0].content).toBe("q");
  });
});
