import { describe, expect, it } from "vitest";
import { KeyedQueue } from "./queue";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("KeyedQueue", () => {
  it("runs one key's tasks one at a time in queue order, other keys alongside", async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const task = (name: string) => async () => {
      running += 1;
      most = Math.max(most, running);
      log.push(`${name}+`);
      await tick();
      log.push(`${name}-`);
      running -= 1;
      return name;
    };
    const results = await Promise.all([queue.run("a", task("a1")), queue.run("a", task("a2")), queue.run("b", task("b1")), queue.run("a", task("a3"))]);
    expect(results).toEqual(["a1", "a2", "b1", "a3"]);
    const ofA = log.filter((entry) => entry.startsWith("a"));
    expect(ofA).toEqual(["a1+", "a1-", "a2+", "a2-", "a3+", "a3-"]);
    expect(most).toBe(2);
  });

  it("keeps going after a task fails, and idle() waits for tasks queued meanwhile", async () => {
    const queue = new KeyedQueue();
    const done: string[] = [];
    const failing = queue.run("a", async () => {
      throw new Error("boom");
    });
    await expect(failing).rejects.toThrow("boom");
    void queue.run("a", async () => {
      await tick();
      void queue.run("a", async () => {
        await tick();
        done.push("second");
      });
      done.push("first");
    });
    await queue.idle();
    expect(done).toEqual(["first", "second"]);
    expect(queue.size).toBe(0);
  });
});
