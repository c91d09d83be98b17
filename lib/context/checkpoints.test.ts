import { describe, expect, it } from "vitest";
import { CheckpointStore } from "./checkpoints";
import { CheckpointError, ContextError } from "./errors";
import { ZERO_USAGE } from "./usage";

describe("CheckpointStore", () => {
  it("[E-K1] numbers versions from 1 and only up, per store", () => {
    const store = new CheckpointStore("task");
    const other = new CheckpointStore("other");
    expect(store.latest()).toBeUndefined();
    expect([store.save({ a: 1 }, ZERO_USAGE), store.save({ a: 2 }, ZERO_USAGE), store.save({ a: 3 }, ZERO_USAGE)].map((c) => c.version)).toEqual([1, 2, 3]);
    expect(other.save({}, ZERO_USAGE).version).toBe(1);
    expect(store.size).toBe(3);
    expect(store.latest()?.version).toBe(3);
    expect(store.get(2).values).toEqual({ a: 2 });
  });

  it("[E-K2] stores deep copies, frozen: the saved object can change, the checkpoint does not", () => {
    const store = new CheckpointStore("task", { now: () => new Date(0) });
    const values = { history: [{ role: "user", content: "q" }] };
    const metadata = { tags: ["x"] };
    const checkpoint = store.save(values, { ...ZERO_USAGE, promptTokens: 1, outputTokens: 2, totalTokens: 3 }, metadata);
    values.history[0].content = "changed";
    values.history.push({ role: "user", content: "more" });
    metadata.tags.push("y");
    expect(checkpoint.values).toEqual({ history: [{ role: "user", content: "q" }] });
    expect(checkpoint.metadata).toEqual({ tags: ["x"] });
    expect(checkpoint.createdAt).toBe("1970-01-01T00:00:00.000Z");
    expect(Object.isFrozen((checkpoint.values.history as unknown[])[0])).toBe(true);
  });

  it("[E-K2] restore returns fresh copies every time", () => {
    const store = new CheckpointStore("task");
    store.save({ list: [1] }, { ...ZERO_USAGE, promptTokens: 5, totalTokens: 5 });
    const first = store.restore(1);
    const second = store.restore(1);
    expect(first).toEqual({ values: { list: [1] }, tokenUsage: { ...ZERO_USAGE, promptTokens: 5, totalTokens: 5 } });
    expect(first.values.list).not.toBe(second.values.list);
    (first.values.list as number[]).push(2);
    expect(store.get(1).values).toEqual({ list: [1] });
  });

  it("[E-K3] an unknown version throws CheckpointError", () => {
    const store = new CheckpointStore("task");
    expect(() => store.get(1)).toThrow(CheckpointError);
    store.save({}, ZERO_USAGE);
    for (const version of [0, 2, -1, 1.5]) {
      let caught: unknown;
      try {
        store.restore(version);
      } catch (error) {
        caught = error;
      }
      expect(CheckpointError.isInstance(caught)).toBe(true);
      expect(caught).toBeInstanceOf(ContextError);
      expect((caught as Error).message).toContain(`version ${version}`);
    }
  });

  it("list returns a copy", () => {
    const store = new CheckpointStore("task");
    store.save({}, ZERO_USAGE);
    store.list().pop();
    expect(store.size).toBe(1);
  });
});
