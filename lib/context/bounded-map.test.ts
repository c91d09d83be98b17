import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BoundedMap } from "./bounded-map";

describe("BoundedMap", () => {
  it("[BM1] holds at most its capacity after many sets", () => {
    const map = new BoundedMap<number, number>(3);
    for (let key = 0; key < 100; key += 1) {
      map.set(key, key);
      expect(map.size).toBe(Math.min(key + 1, 3));
    }
    expect([...map.keys()]).toEqual([97, 98, 99]);
  });

  it("[BM1] drops the oldest entry first", () => {
    const map = new BoundedMap<string, number>(2).set("a", 1).set("b", 2).set("c", 3);
    expect([...map]).toEqual([
      ["b", 2],
      ["c", 3],
    ]);
  });

  it("[BM1] setting a held key drops nothing else and makes it the newest", () => {
    const map = new BoundedMap<string, number>(2).set("a", 1).set("b", 2).set("a", 3);
    expect([...map]).toEqual([
      ["b", 2],
      ["a", 3],
    ]);
    map.set("c", 4);
    expect([...map.keys()]).toEqual(["a", "c"]);
  });

  it("[BM1] keeps the last `capacity` distinct keys set, in the order last set", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(fc.integer({ min: 0, max: 9 })), (capacity, keys) => {
        const map = new BoundedMap<number, number>(capacity);
        for (const [index, key] of keys.entries()) map.set(key, index);
        const lastSet = keys.filter((key, index) => keys.lastIndexOf(key) === index);
        expect([...map.keys()]).toEqual(lastSet.slice(-capacity));
        for (const key of map.keys()) expect(map.get(key)).toBe(keys.lastIndexOf(key));
      }),
    );
  });

  it("[BM2] without refreshOnRead, reads leave the order alone", () => {
    const map = new BoundedMap<string, number>(2).set("a", 1).set("b", 2);
    expect(map.get("a")).toBe(1);
    map.set("c", 3);
    expect([...map.keys()]).toEqual(["b", "c"]);
  });

  it("[BM2] with refreshOnRead, a read makes the key the newest, so the least recently used goes first", () => {
    const map = new BoundedMap<string, number>(2, { refreshOnRead: true }).set("a", 1).set("b", 2);
    expect(map.get("a")).toBe(1);
    expect([...map.keys()]).toEqual(["b", "a"]);
    map.set("c", 3);
    expect([...map.keys()]).toEqual(["a", "c"]);
  });

  it("[BM2] with refreshOnRead, reading a missing key adds nothing", () => {
    const map = new BoundedMap<string, number | undefined>(2, { refreshOnRead: true }).set("a", undefined);
    expect(map.get("b")).toBeUndefined();
    expect(map.get("a")).toBeUndefined();
    expect([...map.keys()]).toEqual(["a"]);
  });
});
