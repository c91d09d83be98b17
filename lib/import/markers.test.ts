import { describe, expect, it } from "vitest";
import { readFixture } from "@/tests/fixtures/import/load";
import { CONTEXT_LAB_OFFLOAD_MARKER, EXO_OFFLOAD_MARKER, findOffloadMarkers, parseConversations } from "./index";

describe("offload markers", () => {
  it("lists Exo / agent-core and Context Lab markers of an imported conversation", () => {
    const [conversation] = parseConversations(readFixture("import/exo-offload.json")).conversations;
    expect(conversation.offloadMarkers).toEqual([
      { messageIndex: 7, handle: "5b0e2d7c9a41", marker: "[[OFFLOAD: handle=5b0e2d7c9a41]]", engine: "exo" },
      {
        messageIndex: 9,
        handle: "c3f1a8e26d05",
        marker: "[[OFFLOAD: handle=c3f1a8e26d05, type=filesystem, path=/tmp/context/offload/MessageOffloader_c3f1a8e26d05.json]]",
        engine: "exo",
      },
      { messageIndex: 14, handle: "off_0a1b2c3d4e5f", marker: "[[OFFLOADED: handle=off_0a1b2c3d4e5f]]", engine: "context-lab" },
    ]);
  });

  it("finds several markers in one content, in order, with Exo's type and path", () => {
    const content = "see [[OFFLOADED: handle=off_00112233aabb]] and [[OFFLOAD: handle=h1, type=in_memory]] and [[OFFLOAD: type=filesystem, path=/x/y.json]]";
    expect(findOffloadMarkers(content)).toEqual([
      { handle: "off_00112233aabb", marker: "[[OFFLOADED: handle=off_00112233aabb]]", engine: "context-lab", index: 4 },
      { handle: "h1", marker: "[[OFFLOAD: handle=h1, type=in_memory]]", engine: "exo", index: 47, type: "in_memory" },
      { handle: "/x/y.json", marker: "[[OFFLOAD: type=filesystem, path=/x/y.json]]", engine: "exo", index: 90, type: "filesystem", path: "/x/y.json" },
    ]);
  });

  it("ignores look-alikes: nested JSON lists, bad handles, empty content", () => {
    expect(findOffloadMarkers('[[{"flight_number": "HAT057"}]]')).toEqual([]);
    expect(findOffloadMarkers("[[OFFLOADED: handle=off_XYZ]]")).toEqual([]);
    expect(findOffloadMarkers("[[OFFLOAD: type=in_memory]]")).toEqual([]);
    expect(findOffloadMarkers(null)).toEqual([]);
  });

  it("exports non-global regexes, safe to test repeatedly", () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(EXO_OFFLOAD_MARKER.test("[[OFFLOAD: handle=a]]")).toBe(true);
      expect(CONTEXT_LAB_OFFLOAD_MARKER.test("[[OFFLOADED: handle=off_0123456789ab]]")).toBe(true);
    }
    expect(EXO_OFFLOAD_MARKER.test("[[OFFLOADED: handle=off_0123456789ab]]")).toBe(false);
  });
});
