import { describe, expect, it } from "vitest";
import { memoryForRequest, type MemorySnapshot } from "./snapshot";

/** A branch compacted three times: each summary extends the one before it, so the last stands for messages 0–29. */
function compactedThrice(): MemorySnapshot {
  const chain = [
    { id: "s1", branchId: "b", fromPosition: 0, toPosition: 10, text: "The user booked flight HAT100 to Boston." },
    { id: "s2", branchId: "b", fromPosition: 10, toPosition: 20, text: "The user booked flight HAT100 to Boston, then asked to change it." },
    { id: "s3", branchId: "b", fromPosition: 20, toPosition: 30, text: "The user booked flight HAT100 to Boston, changed it, then cancelled it." },
  ];
  const artifacts = [
    { id: "a1", branchId: "b", toolName: "search_flights", summary: "flights to Boston: HAT100, HAT204", position: 4, handle: "off_0123456789ab" },
  ];
  return { branchId: "b", coveredUntil: 30, system: [], chain, checkpoint: { id: "c3", version: 3 }, artifacts };
}

describe("memoryForRequest", () => {
  it("[E-RB8] retrieves no summary the checkpoint's summary covers, and gives the place to a stored tool result", () => {
    const memory = memoryForRequest(compactedThrice(), { query: "flight to Boston HAT100", limit: 3 });
    expect(memory.summary).toMatchObject({ id: "s3", fromPosition: 0, toPosition: 30 });
    expect(memory.retrieved?.map((entry) => entry.id)).toEqual(["a1"]);
    expect(memory.retrieved?.[0].content).toContain("off_0123456789ab");
  });
});
