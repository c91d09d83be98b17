import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deepCopy } from "./copy";
import { ContextError } from "./errors";
import { deepFreeze } from "./freeze";
import type { Message } from "./messages";
import { ContextState, STATE_KEYS } from "./state";
import { mutateEverything, stateValueArbitrary } from "./test-support/arbitraries";
import { answer, user } from "./test-support/conversation";

describe("ContextState", () => {
  it("[E-S2] reads through the parent chain", () => {
    const root = new ContextState({ a: 1 });
    const middle = new ContextState({ b: 2 }, root);
    const leaf = new ContextState({}, middle);
    expect(leaf.get("a")).toBe(1);
    expect(leaf.get("b")).toBe(2);
    expect(leaf.get("missing")).toBeUndefined();
    expect(leaf.getOr("missing", "fallback")).toBe("fallback");
    expect(leaf.has("a")).toBe(true);
  });

  it("[E-S2] writes locally: the parent never sees a child's set", () => {
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

  it("[E-S2] a local delete hides an inherited value in the child only", () => {
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

  it("[E-S2] deleting a key only the child holds removes it outright", () => {
    const child = new ContextState({}, new ContextState());
    child.set("x", 1);
    child.delete("x");
    expect(child.localKeys()).toEqual([]);
    expect(child.deletedKeys()).toEqual([]);
  });

  it("[E-S2] toObject is the merged view, localObject only this level", () => {
    const parent = new ContextState({ a: 1, b: 2 });
    const child = new ContextState({ b: 20, c: 30 }, parent);
    expect(child.toObject()).toEqual({ a: 1, b: 20, c: 30 });
    expect(child.localObject()).toEqual({ b: 20, c: 30 });
  });

  it("[E-S2] a state without children keeps its values unfrozen", () => {
    const state = new ContextState();
    const history: Message[] = [user("q"), answer("a")];
    state.set(STATE_KEYS.history, history);
    expect(state.isSealed).toBe(false);
    expect(Object.isFrozen(state.get(STATE_KEYS.history))).toBe(false);
  });

  it("[E-S2] creating a child seals the parent and its ancestors: values deep-frozen now and when set later", () => {
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

  it("[E-S2] a child mutating an inherited history throws and the parent is unchanged", () => {
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

  it("[E-S2] deep-freezes messages inside an array that was frozen only on the outside", () => {
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

  it("[E-S2] a child gets its own copy of an inherited Map, Set, Date or typed array: its changes never reach the parent", () => {
    const parent = new ContextState({ map: new Map([["a", 1]]), set: new Set(["x"]), date: new Date(0), bytes: new Uint8Array([1, 2, 3]) });
    const child = new ContextState({}, parent);
    (child.get("map") as Map<string, number>).set("b", 2);
    (child.get("set") as Set<string>).add("y");
    (child.get("date") as Date).setTime(86_400_000);
    (child.get("bytes") as Uint8Array)[0] = 9;
    expect(parent.get("map")).toEqual(new Map([["a", 1]]));
    expect(parent.get("set")).toEqual(new Set(["x"]));
    expect((parent.get("date") as Date).getTime()).toBe(0);
    expect(parent.get("bytes")).toEqual(new Uint8Array([1, 2, 3]));
    // The child keeps its own changes from read to read, and its copies keep their types.
    expect(child.get("map")).toEqual(
      new Map([
        ["a", 1],
        ["b", 2],
      ]),
    );
    expect(child.get("bytes")).toBeInstanceOf(Uint8Array);
    expect((child.get("date") as Date).getTime()).toBe(86_400_000);
  });

  it("[E-S2] a child gets a working copy of a class instance: its methods run on the copy, never on the parent's", () => {
    class Workspace {
      private readonly files: Record<string, string> = {};
      private readonly index = new Map<string, number>();
      write(path: string, text: string): void {
        this.files[path] = text;
        this.index.set(path, text.length);
      }
      read(path: string): string | undefined {
        return this.files[path];
      }
    }
    const workspace = new Workspace();
    workspace.write("plan.md", "v1");
    const parent = new ContextState({ workspace });
    const child = new ContextState({}, parent);
    const inherited = child.get("workspace") as Workspace;
    expect(inherited).toBeInstanceOf(Workspace);
    inherited.write("plan.md", "v2 by the child");
    expect(inherited.read("plan.md")).toBe("v2 by the child");
    expect(workspace.read("plan.md")).toBe("v1");
    expect(parent.get("workspace")).toBe(workspace);
  });

  it("[E-S2] a value a copy cannot protect (a function) is refused with a ContextError naming it, and the parent is left unsealed", () => {
    const parent = new ContextState({ tools: { lookup: () => "x" }, notes: ["a"] });
    let caught: unknown;
    try {
      new ContextState({}, parent);
    } catch (error) {
      caught = error;
    }
    expect(ContextError.isInstance(caught)).toBe(true);
    expect((caught as ContextError).where).toBe("state key 'tools'.lookup");
    expect(parent.isSealed).toBe(false);
    expect(Object.isFrozen(parent.get("notes"))).toBe(false);
    parent.delete("tools");
    expect(() => new ContextState({}, parent)).not.toThrow();
    expect(Object.isFrozen(parent.get("notes"))).toBe(true);
  });

  it("[E-S2] a sealed state protects values set later the same way, and refuses a function without writing it", () => {
    const parent = new ContextState({ plan: "A" });
    const child = new ContextState({}, parent);
    parent.set("index", new Map([["k", [1]]]));
    (child.get("index") as Map<string, number[]>).get("k")!.push(2);
    expect(parent.get("index")).toEqual(new Map([["k", [1]]]));
    expect(() => parent.set("callback", () => 1)).toThrow(ContextError);
    expect(parent.has("callback")).toBe(false);
  });

  it("[E-S2] toObject reads as get does: inherited Maps arrive as the child's copies", () => {
    const map = new Map([["a", 1]]);
    const parent = new ContextState({ map });
    const child = new ContextState({}, parent);
    const merged = child.toObject();
    expect(merged.map).not.toBe(map);
    expect(merged.map).toBe(child.get("map"));
  });

  it("[E-S2] refuses undefined: delete is the way to remove", () => {
    expect(() => new ContextState().set("a", undefined as unknown as number)).toThrow(/delete/);
  });

  it("[E-S3] names the well-known keys exactly", () => {
    expect(Object.values(STATE_KEYS).sort()).toEqual(
      ["history", "needs_summary", "offloaded_messages", "offloaded_results", "summary_candidates", "token_budget_exceeded", "token_budget_trimmed"].sort(),
    );
  });
});

describe("ContextState properties", () => {
  it("[E-S2] for any value (plain data, Maps, Sets, Dates, typed arrays, class instances, nested), nothing a child does to what it reads changes what its parent sees", () => {
    fc.assert(
      fc.property(stateValueArbitrary, (value) => {
        const parent = new ContextState({ value });
        const before = deepCopy(value);
        const child = new ContextState({}, parent);
        mutateEverything(child.get("value"));
        mutateEverything(child.toObject().value);
        expect(parent.get("value")).toStrictEqual(before);
        expect(parent.get("value")).toBe(value);
      }),
      { numRuns: 300 },
    );
  });
});

describe("deepFreeze / deepCopy", () => {
  it("[E-S2] freezes nested plain data and leaves primitives alone", () => {
    const value = deepFreeze({ a: [{ b: 1 }], c: "x" });
    expect(Object.isFrozen(value.a[0])).toBe(true);
    expect(deepFreeze(5)).toBe(5);
    expect(deepFreeze(null)).toBe(null);
  });

  it("[E-K2] deepCopy gives an equal, independent, unfrozen copy", () => {
    const original = deepFreeze({ history: [user("q")] });
    const copy = deepCopy(original);
    expect(copy).toEqual(original);
    expect(copy.history).not.toBe(original.history);
    copy.history[0].content = "changed";
    expect(original.history[0].content).toBe("q");
  });
});
