import { describe, expect, it } from "vitest";
import { matchRanges } from "./search-highlight";

describe("matchRanges", () => {
  it("[UI-S1] finds every occurrence in every text node, case-insensitively, as ranges over the matched text", () => {
    const root = document.createElement("div");
    root.innerHTML = "<p>Reservation <b>8JX2WO</b> and reservation 8jx2wo</p><p>no match here</p>";
    const ranges = matchRanges(root, " 8jx2wo ".trim());
    expect(ranges.map((range) => range.toString())).toEqual(["8JX2WO", "8jx2wo"]);
    expect(matchRanges(root, "reservation").map((range) => range.toString())).toEqual(["Reservation", "reservation"]);
    expect(matchRanges(root, "  ")).toEqual([]);
  });
});
