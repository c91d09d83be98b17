import { describe, expect, it } from "vitest";
import { contentHandle, isHandle, offloadMarker, OFFLOAD_MARKER_PATTERN, randomHandle } from "./handles";

const never = () => false;

describe("offload handles", () => {
  it("[E-O1] markers read [[OFFLOADED: handle=off_<12 hex>]]", () => {
    expect(offloadMarker("off_0123456789ab")).toBe("[[OFFLOADED: handle=off_0123456789ab]]");
    expect([...`a ${offloadMarker("off_0123456789ab")} b`.matchAll(OFFLOAD_MARKER_PATTERN)].map((match) => match[1])).toEqual(["off_0123456789ab"]);
    expect(isHandle("off_0123456789ab")).toBe(true);
    expect(isHandle("off_0123456789AB")).toBe(false);
    expect(isHandle("off_0123")).toBe(false);
  });

  it("[E-O4] content handles are derived from the content", () => {
    const handle = contentHandle("some long content", never);
    expect(isHandle(handle)).toBe(true);
    expect(contentHandle("some long content", never)).toBe(handle);
    expect(contentHandle("some long content!", never)).not.toBe(handle);
  });

  it("[E-O4] a taken handle makes the content handle move on", () => {
    const first = contentHandle("content", never);
    const second = contentHandle("content", (candidate) => candidate === first);
    expect(isHandle(second)).toBe(true);
    expect(second).not.toBe(first);
  });

  it("random handles are well-formed and avoid taken ones", () => {
    const handles = new Set(Array.from({ length: 50 }, () => randomHandle("x", never)));
    expect([...handles].every(isHandle)).toBe(true);
    expect(handles.size).toBe(50);
    let calls = 0;
    const handle = randomHandle("x", () => ++calls < 3);
    expect(isHandle(handle)).toBe(true);
    expect(calls).toBe(3);
  });
});
