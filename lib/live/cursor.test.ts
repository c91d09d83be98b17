import { describe, expect, it } from "vitest";
import { planAppend, takeContiguous } from "./cursor";

const at = (...positions: number[]) => positions.map((position) => ({ position, text: `m${position}` }));

describe("planAppend", () => {
  it("[LV-LC2] ignores messages at or below the cursor: a tab that read them already shows them", () => {
    expect(planAppend(5, at(3, 4))).toEqual({ fresh: [], missing: null });
    expect(planAppend(5, [])).toEqual({ fresh: [], missing: null });
  });

  it("[LV-LC2] keeps the part of an append past the cursor, each position once and in order", () => {
    expect(planAppend(5, at(6, 4, 5, 6))).toEqual({ fresh: at(5, 6), missing: null });
  });

  it("[LV-LC3] names the positions no event brought when an append starts past the cursor", () => {
    expect(planAppend(5, at(8, 9))).toEqual({ fresh: at(8, 9), missing: { from: 5, to: 8 } });
  });

  it("[LV-LC3] reads up to the append's end when the append itself has a hole", () => {
    expect(planAppend(5, at(5, 7))).toEqual({ fresh: at(5, 7), missing: { from: 5, to: 8 } });
  });
});

describe("takeContiguous", () => {
  it("[LV-LC3] joins what was read with what the event carried, from the cursor on", () => {
    const read = at(5, 6, 7);
    const { fresh } = planAppend(5, at(8, 9));
    expect(takeContiguous(5, [...read, ...fresh]).map((message) => message.position)).toEqual([5, 6, 7, 8, 9]);
  });

  it("[LV-LC3] stops at a hole, so no message is shown at another's number", () => {
    expect(takeContiguous(5, at(5, 6, 8, 9)).map((message) => message.position)).toEqual([5, 6]);
    expect(takeContiguous(5, at(6, 7))).toEqual([]);
  });

  it("[LV-LC3] keeps the first copy of a position read twice", () => {
    const first = { position: 5, text: "read" };
    expect(takeContiguous(5, [first, { position: 5, text: "event" }])).toEqual([first]);
  });
});
