import { describe, expect, it } from "vitest";
import { deepCopy, sharingOf } from "./copy";
import { ContextError } from "./errors";
import { deepFreeze } from "./freeze";

class Ledger {
  entries: number[] = [];
  add(amount: number): void {
    this.entries.push(amount);
  }
  get total(): number {
    return this.entries.reduce((sum, amount) => sum + amount, 0);
  }
}

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("deepCopy", () => {
  it("[E-K2] copies plain data into equal, independent, unfrozen values", () => {
    const original = deepFreeze({ history: [{ role: "user", content: "q" }], count: 1, nothing: null });
    const copy = deepCopy(original);
    expect(copy).toEqual(original);
    expect(copy.history).not.toBe(original.history);
    expect(Object.isFrozen(copy.history)).toBe(false);
    copy.history[0].content = "changed";
    expect(original.history[0].content).toBe("q");
  });

  it("[E-S2][E-K2] keeps the types structuredClone loses or keeps: class instances with their methods, Maps, Sets, Dates, RegExps, typed arrays", () => {
    const ledger = new Ledger();
    ledger.add(5);
    const bytes = new Uint16Array([1, 2, 3, 4]).subarray(1, 3);
    const original = {
      ledger,
      map: new Map<object, string>([[{ id: 1 }, "one"]]),
      set: new Set([1, 2]),
      date: new Date(1_000),
      pattern: /a+/gi,
      bytes,
      view: new DataView(new ArrayBuffer(4)),
    };
    const copy = deepCopy(original);
    expect(copy.ledger).toBeInstanceOf(Ledger);
    copy.ledger.add(7);
    expect([copy.ledger.total, ledger.total]).toEqual([12, 5]);
    expect(copy.map).toBeInstanceOf(Map);
    expect([...copy.map.values()]).toEqual(["one"]);
    expect([...copy.map.keys()][0]).not.toBe([...original.map.keys()][0]);
    expect(copy.set).toEqual(new Set([1, 2]));
    expect(copy.date).toEqual(new Date(1_000));
    expect(copy.date).not.toBe(original.date);
    expect([copy.pattern.source, copy.pattern.flags]).toEqual(["a+", "gi"]);
    expect(copy.bytes).toBeInstanceOf(Uint16Array);
    expect([...copy.bytes]).toEqual([2, 3]);
    copy.bytes[0] = 99;
    expect(bytes[0]).toBe(2);
    expect(copy.view).toBeInstanceOf(DataView);
    expect(copy.view.buffer).not.toBe(original.view.buffer);
  });

  it("keeps shared references shared and cycles cyclic", () => {
    const shared = { label: "shared" };
    const node: { self?: unknown; left: object; right: object } = { left: shared, right: shared };
    node.self = node;
    const copy = deepCopy(node);
    expect(copy.left).toBe(copy.right);
    expect(copy.left).not.toBe(shared);
    expect(copy.self).toBe(copy);
  });

  it("keeps a `__proto__` key as a key", () => {
    const original = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const copy = deepCopy(original);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__"]);
  });

  it("[E-S2] refuses functions, WeakMaps and Promises with a ContextError naming the path", () => {
    for (const [value, where, what] of [
      [{ tools: [{ run: () => 1 }] }, "value.tools[0].run", "a function"],
      [{ cache: new WeakMap() }, "value.cache", "a WeakMap"],
      [new Map([["pending", Promise.resolve(1)]]), "value.<entry 0>", "a Promise"],
    ] as const) {
      const error = caught(() => deepCopy(value));
      expect(ContextError.isInstance(error)).toBe(true);
      expect((error as ContextError).where).toBe(where);
      expect((error as ContextError).message).toContain(what);
    }
  });
});

describe("sharingOf", () => {
  it("[E-S2] shares plain data frozen and anything else as copies, without changing the value", () => {
    const history = [{ role: "user", content: "q" }];
    expect(sharingOf(history, "history")).toBe("frozen");
    expect(Object.isFrozen(history)).toBe(false);
    expect(sharingOf(5, "n")).toBe("frozen");
    for (const value of [new Map(), { nested: [new Set()] }, new Date(), new Uint8Array(2), new Ledger()]) expect(sharingOf(value, "v")).toBe("copied");
  });

  it("[E-S2] refuses what no copy can protect, naming where", () => {
    const error = caught(() => sharingOf({ a: { b: () => 1 } }, "state key 'x'"));
    expect((error as ContextError).where).toBe("state key 'x'.a.b");
  });
});
