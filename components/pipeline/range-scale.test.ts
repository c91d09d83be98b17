import { describe, expect, it } from "vitest";
import { clamp, fromSliderPosition, LOG_POSITIONS, parseInteger, toSliderPosition, type RangeBounds } from "./range-scale";

const budget: RangeBounds = { min: 500, max: 200_000, step: 1, scale: "log" };
const rounds: RangeBounds = { min: 0, max: 200, step: 1, scale: "linear" };

describe("range scale", () => {
  it("reaches both ends of a log range exactly", () => {
    expect(fromSliderPosition(0, budget)).toBe(500);
    expect(fromSliderPosition(LOG_POSITIONS, budget)).toBe(200_000);
  });

  it("moves a log slider's value at every position, never backwards", () => {
    const values = Array.from({ length: LOG_POSITIONS + 1 }, (_, position) => fromSliderPosition(position, budget));
    values.slice(1).forEach((value, index) => expect(value).toBeGreaterThan(values[index]));
  });

  it("puts a value back near its own position", () => {
    for (const value of [500, 4_096, 8_000, 100_000, 200_000]) {
      const back = fromSliderPosition(toSliderPosition(value, budget), budget);
      expect(Math.abs(back - value) / value).toBeLessThan(0.02);
    }
  });

  it("snaps a linear slider to its step and clamps", () => {
    expect(fromSliderPosition(35, { ...rounds, step: 5 })).toBe(35);
    expect(fromSliderPosition(37, { ...rounds, step: 5 })).toBe(35);
    expect(toSliderPosition(500, rounds)).toBe(200);
  });

  it("parses typed numbers to integers", () => {
    expect(parseInteger(" 12000 ")).toBe(12_000);
    expect(parseInteger("12.6")).toBe(13);
    expect(parseInteger("")).toBeNull();
    expect(parseInteger("abc")).toBeNull();
    expect(parseInteger("1e9")).toBe(1_000_000_000);
    expect(clamp(parseInteger("-4") ?? 0, budget.min, budget.max)).toBe(500);
  });
});
