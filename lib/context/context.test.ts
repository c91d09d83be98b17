import { describe, expect, it } from "vitest";
import { makeConfig } from "./config";
import { Context } from "./context";
import { CheckpointError, ContextError } from "./errors";
import type { Message } from "./messages";
import { STATE_KEYS } from "./state";
import { ZERO_USAGE } from "./usage";
import { answer, user } from "./test-support/conversation";

const fixedClock = () => new Date("2026-03-10T12:00:00.000Z");

describe("Context", () => {
  it("needs a non-empty task id", () => {
    expect(() => new Context("")).toThrow(ContextError);
  });

  it("defaults to the copilot config and zero usage", () => {
    const ctx = new Context("task");
    expect(ctx.config.mode).toBe("copilot");
    expect(ctx.tokenUsage).toEqual(ZERO_USAGE);
  });

  it("adds token usage, total defaulting to prompt + output", () => {
    const ctx = new Context("task");
    ctx.addTokens({ promptTokens: 100, outputTokens: 20 });
    ctx.addTokens({ promptTokens: 1, outputTokens: 1, totalTokens: 5 });
    expect(ctx.tokenUsage).toEqual({ ...ZERO_USAGE, promptTokens: 101, outputTokens: 21, totalTokens: 125 });
  });

  it("hands out copies of its usage", () => {
    const ctx = new Context("task");
    (ctx.tokenUsage as { promptTokens: number }).promptTokens = 99;
    expect(ctx.tokenUsage.promptTokens).toBe(0);
  });
});

describe("Context.fork", () => {
  it("[E-F1] gives a child that reads the parent's state, shares its config and snapshots its usage", () => {
    const config = makeConfig("navigator");
    const parent = new Context("parent", { config });
    parent.state.set(STATE_KEYS.history, [user("q")]);
    parent.addTokens({ promptTokens: 50, outputTokens: 5 });
    const child = parent.fork("child");
    expect(child.taskId).toBe("child");
    expect(child.parent).toBe(parent);
    expect(parent.children).toEqual([child]);
    expect(child.config).toBe(config);
    expect(child.state.get(STATE_KEYS.history)).toEqual([user("q")]);
    expect(child.tokenUsage).toEqual(parent.tokenUsage);
    child.addTokens({ promptTokens: 10 });
    expect(parent.tokenUsage.promptTokens).toBe(50);
  });

  it("[E-S2][E-F1] a child's writes and deletes stay local until merged", () => {
    const parent = new Context("parent");
    parent.state.set("plan", "A");
    const child = parent.fork("child");
    child.state.set("plan", "B");
    child.state.delete("plan");
    child.state.set("extra", 1);
    expect(parent.state.get("plan")).toBe("A");
    expect(parent.state.has("extra")).toBe(false);
  });

  it("[E-S2] a child mutating an inherited history throws and the parent is unchanged", () => {
    const parent = new Context("parent");
    parent.state.set(STATE_KEYS.history, [user("q"), answer("a")]);
    const child = parent.fork("child");
    const inherited = child.state.get(STATE_KEYS.history) as Message[];
    expect(() => inherited.push(user("injected"))).toThrow(TypeError);
    expect(() => {
      inherited[1].content = "rewritten";
    }).toThrow(TypeError);
    expect(parent.state.get(STATE_KEYS.history)).toEqual([user("q"), answer("a")]);
  });

  it("[E-S2][E-F1] forks a context holding a typed array, a Map and a class instance; the child changes none of the parent's", () => {
    class Workspace {
      files: Record<string, string> = {};
      write(path: string, text: string): void {
        this.files[path] = text;
      }
    }
    const parent = new Context("parent");
    parent.state.set("embedding", new Float32Array([0.5, 0.25]));
    parent.state.set("seen", new Map([["ZFA04Y", 1]]));
    parent.state.set("workspace", new Workspace());
    const child = parent.fork("child");
    (child.state.get("embedding") as Float32Array)[0] = 1;
    (child.state.get("seen") as Map<string, number>).set("HAT136", 2);
    (child.state.get("workspace") as Workspace).write("notes.md", "from the child");
    expect(parent.state.get("embedding")).toEqual(new Float32Array([0.5, 0.25]));
    expect(parent.state.get("seen")).toEqual(new Map([["ZFA04Y", 1]]));
    expect((parent.state.get("workspace") as Workspace).files).toEqual({});
  });

  it("[E-S2] fork refuses a function in state with a ContextError, and forks once it is gone", () => {
    const parent = new Context("parent");
    parent.state.set("callback", () => "changes anything it closes over");
    expect(() => parent.fork("child")).toThrow(ContextError);
    expect(parent.children).toEqual([]);
    parent.state.delete("callback");
    expect(parent.fork("child").parent).toBe(parent);
  });

  it("returns children as a copy", () => {
    const parent = new Context("parent");
    parent.fork("a");
    (parent.children as Context[]).length = 0;
    expect(parent.children).toHaveLength(1);
  });
});

describe("Context.merge", () => {
  it("[E-F2] copies the child's local values and deletes into the parent", () => {
    const parent = new Context("parent");
    parent.state.set("keep", 1);
    parent.state.set("drop", 2);
    const child = parent.fork("child");
    child.state.set("keep", 10);
    child.state.set("new", { list: [1, 2] });
    child.state.delete("drop");
    parent.merge(child);
    expect(parent.state.toObject()).toEqual({ keep: 10, new: { list: [1, 2] } });
    expect(parent.state.has("drop")).toBe(false);
  });

  it("[E-F2] merged values are copies: changing the child's object afterwards leaves the parent alone", () => {
    const parent = new Context("parent");
    const child = parent.fork("child");
    const notes = { list: ["a"] };
    child.state.set("notes", notes);
    parent.merge(child);
    expect(parent.state.get("notes")).not.toBe(notes);
    notes.list.push("b");
    expect(parent.state.get("notes")).toEqual({ list: ["a"] });
  });

  it("[E-F2] adds only the child's net token delta since the fork", () => {
    const parent = new Context("parent");
    parent.addTokens({ promptTokens: 100, outputTokens: 10 });
    const child = parent.fork("child");
    child.addTokens({ promptTokens: 30, outputTokens: 3 });
    parent.addTokens({ promptTokens: 5 });
    parent.merge(child);
    expect(parent.tokenUsage).toEqual({ ...ZERO_USAGE, promptTokens: 135, outputTokens: 13, totalTokens: 148 });
  });

  it("[E-F2] merging the same child again adds only what it used since the last merge", () => {
    const parent = new Context("parent");
    const child = parent.fork("child");
    child.addTokens({ promptTokens: 10 });
    parent.merge(child);
    parent.merge(child);
    expect(parent.tokenUsage.promptTokens).toBe(10);
    child.addTokens({ promptTokens: 4 });
    parent.merge(child);
    expect(parent.tokenUsage.promptTokens).toBe(14);
  });

  it("[E-F2][E-S2] a merged Map or class instance arrives as a copy of its own type", () => {
    class Counter {
      count = 0;
      bump(): void {
        this.count += 1;
      }
    }
    const parent = new Context("parent");
    const child = parent.fork("child");
    const counter = new Counter();
    child.state.set("counter", counter);
    child.state.set("index", new Map([["a", [1]]]));
    parent.merge(child);
    const merged = parent.state.get("counter") as Counter;
    expect(merged).toBeInstanceOf(Counter);
    expect(merged).not.toBe(counter);
    merged.bump();
    expect(counter.count).toBe(0);
    expect(parent.state.get("index")).toEqual(new Map([["a", [1]]]));
  });

  it("[E-F2][E-2] merging a value that cannot be copied throws ContextError and merges nothing", () => {
    const parent = new Context("parent");
    const child = parent.fork("child");
    child.state.set("plan", "B");
    child.state.set("callback", () => 1);
    expect(() => parent.merge(child)).toThrow(ContextError);
    expect(parent.state.has("plan")).toBe(false);
  });

  it("[E-F2] merging a context that is not a direct child throws ContextError", () => {
    const root = new Context("root");
    const child = root.fork("child");
    const grandchild = child.fork("grandchild");
    const stranger = new Context("stranger");
    for (const notChild of [grandchild, stranger, root]) {
      let caught: unknown;
      try {
        root.merge(notChild);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ContextError);
      expect(ContextError.isInstance(caught)).toBe(true);
      expect((caught as ContextError).message).toContain("not a direct child");
    }
    expect(() => new Context("look-alike", { parent: root })).not.toThrow();
    expect(() => root.merge(new Context("look-alike", { parent: root }))).toThrow(ContextError);
  });
});

describe("Context.snapshot / Context.restore", () => {
  it("[E-K1] numbers snapshots 1, 2, ... and records usage, metadata and time", () => {
    const ctx = new Context("task", { now: fixedClock });
    ctx.state.set(STATE_KEYS.history, [user("q")]);
    ctx.addTokens({ promptTokens: 7 });
    const first = ctx.snapshot({ label: "before" });
    const second = ctx.snapshot();
    expect([first.version, second.version]).toEqual([1, 2]);
    expect(first).toMatchObject({ taskId: "task", tokenUsage: { promptTokens: 7 }, metadata: { label: "before" }, createdAt: "2026-03-10T12:00:00.000Z" });
    expect(ctx.checkpoints.list().map((checkpoint) => checkpoint.version)).toEqual([1, 2]);
  });

  it("[E-K2] a snapshot holds deep copies: later state changes never reach it", () => {
    const ctx = new Context("task");
    const notes = { list: ["a"] };
    ctx.state.set("notes", notes);
    const checkpoint = ctx.snapshot();
    notes.list.push("b");
    ctx.state.set("notes", { list: ["c"] });
    expect(checkpoint.values).toEqual({ notes: { list: ["a"] } });
    expect(Object.isFrozen(checkpoint.values)).toBe(true);
  });

  it("[E-K3][E-2] a function in state makes snapshot throw CheckpointError naming it, not the platform's DataCloneError", () => {
    const ctx = new Context("task");
    ctx.state.set("notes", ["a"]);
    ctx.state.set("format", (text: string) => text.trim());
    let caught: unknown;
    try {
      ctx.snapshot();
    } catch (error) {
      caught = error;
    }
    expect(CheckpointError.isInstance(caught)).toBe(true);
    expect(caught).toBeInstanceOf(CheckpointError);
    expect((caught as CheckpointError).where).toBe("state.format");
    expect((caught as CheckpointError).message).toContain("a function");
    expect(ctx.checkpoints.size).toBe(0);
  });

  it("[E-K2] a snapshot keeps Maps, Dates and class instances as copies of their own types", () => {
    const ctx = new Context("task");
    const when = new Date(5);
    ctx.state.set("when", when);
    ctx.state.set("seen", new Map([["a", 1]]));
    const checkpoint = ctx.snapshot();
    when.setTime(10);
    expect(checkpoint.values.when).toEqual(new Date(5));
    expect(checkpoint.values.seen).toEqual(new Map([["a", 1]]));
  });

  it("[E-K2] restores a new root context from copies of the checkpoint's values and its usage", () => {
    const ctx = new Context("task");
    ctx.state.set(STATE_KEYS.history, [user("q"), answer("a")]);
    ctx.addTokens({ promptTokens: 3, outputTokens: 4 });
    const checkpoint = ctx.snapshot();
    const config = makeConfig("pilot");
    const restored = Context.restore(checkpoint, config);
    expect(restored.taskId).toBe("task");
    expect(restored.parent).toBeUndefined();
    expect(restored.config).toBe(config);
    expect(restored.tokenUsage).toEqual({ ...ZERO_USAGE, promptTokens: 3, outputTokens: 4, totalTokens: 7 });
    expect(restored.state.get(STATE_KEYS.history)).toEqual([user("q"), answer("a")]);
    expect(restored.state.get(STATE_KEYS.history)).not.toBe(checkpoint.values.history);
    restored.state.set(STATE_KEYS.history, []);
    expect(checkpoint.values.history).toEqual([user("q"), answer("a")]);
  });
});
