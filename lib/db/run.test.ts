import { describe, expect, it } from "vitest";
import { ConflictError } from "./errors";
import { retryConflicts, retryWhile } from "./run";

describe("retryWhile", () => {
  it("runs again while the failure is retryable, at most `attempts` times in all, pausing after each failed run", async () => {
    const pauses: number[] = [];
    let runs = 0;
    const failing = retryWhile(
      async () => {
        runs += 1;
        throw new Error(`run ${runs}`);
      },
      {
        attempts: 3,
        retryable: () => true,
        pause: (attempt) => {
          pauses.push(attempt);
          return 0;
        },
      },
    );
    await expect(failing).rejects.toThrow("run 3");
    expect(pauses).toEqual([1, 2]);
    runs = 0;
    const second = await retryWhile(
      async () => {
        runs += 1;
        if (runs < 2) throw new Error("once");
        return "done";
      },
      { attempts: 5, retryable: () => true, pause: () => 0 },
    );
    expect([second, runs]).toEqual(["done", 2]);
  });

  it("retryConflicts runs a rolled-back transaction again and throws any other conflict at once", async () => {
    let runs = 0;
    const again = await retryConflicts(async () => {
      runs += 1;
      if (runs === 1) throw new ConflictError("branch", "deadlock", { retryable: true });
      return runs;
    });
    expect(again).toBe(2);
    runs = 0;
    const refused = retryConflicts(async () => {
      runs += 1;
      throw new ConflictError("branch", "not retryable");
    });
    await expect(refused).rejects.toThrow("not retryable");
    expect(runs).toBe(1);
  });
});
