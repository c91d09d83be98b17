import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cyrb53, hashPair } from "./hash";
import { messageFingerprint } from "./same-message";

describe("hashPair", () => {
  it("[E-M3] is cyrb53 under each seed, in one pass, for any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), fc.integer(), fc.integer(), (text, first, second) => {
        expect(hashPair(text, first, second)).toBe(`${cyrb53(text, first).toString(36)}.${cyrb53(text, second).toString(36)}`);
      }),
    );
  });

  it("[E-M3] fingerprints stay what databases already store", () => {
    expect(messageFingerprint({ role: "user", content: "Can you move booking ZFA04Y to May 5th?" })).toBe("lw5hprt417.4f26fez7ox");
    expect(
      messageFingerprint({
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_reservation_details", arguments: '{"reservation_id": "ZFA04Y"}' } }],
      }),
    ).toBe("1qpm80j7bee.63mo3ihzwv");
  });
});
