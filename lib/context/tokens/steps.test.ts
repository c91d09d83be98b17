import { describe, expect, it } from "vitest";
import type { Message } from "../messages";
import { TiktokenCounter } from "./counter";
import { getTextEncoder, LONG_TEXT_LENGTH } from "./encodings";

// E-T10: counting in steps gives `count`'s numbers, with pauses between the steps.
const prose = "The booking was changed twice; the refund policy says 14 days. ".repeat(4_000);
const run = "y".repeat(300_000);
const mixed = `${prose}${"q".repeat(50_000)} tail`;

/** A pause that only counts how often it was awaited, and runs `between` each time. */
function countingPause(between: () => void = () => {}) {
  const pause = { count: 0, wait: async () => {} };
  pause.wait = async () => {
    pause.count += 1;
    between();
  };
  return pause;
}

describe("TextEncoder.countInSteps (E-T10)", () => {
  it("[E-T10] counts long texts exactly as count does, on both encodings, pausing between steps", async () => {
    for (const encoding of ["cl100k_base", "o200k_base"] as const) {
      const encoder = getTextEncoder(encoding);
      for (const text of [run, prose, mixed]) {
        const pause = countingPause();
        // A fresh copy of the text, so the kept count of an earlier `count` is not what is read.
        const fresh = `${text} `;
        const stepped = await encoder.countInSteps(fresh, pause.wait);
        expect(stepped).toBe(encoder.encode(fresh).length);
        expect(pause.count).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it("[E-T10] a long merge in steps is unaffected by other counts run during its pauses", async () => {
    const encoder = getTextEncoder("o200k_base");
    const others = ["x".repeat(10_000), "ab".repeat(9_000), "hello world"];
    const expected = others.map((text) => encoder.encode(text).length);
    const seen: number[][] = [];
    const pause = countingPause(() => seen.push(others.map((text) => encoder.count(text))));
    const text = `${"z".repeat(400_000)}!`;
    const stepped = await encoder.countInSteps(text, pause.wait);
    expect(stepped).toBe(encoder.encode(text).length);
    expect(pause.count).toBeGreaterThan(5);
    for (const counts of seen) expect(counts).toEqual(expected);
  });

  it("[E-T10] keeps a long text's count: count after countInSteps does not pause or merge again", async () => {
    const encoder = getTextEncoder("cl100k_base");
    const text = `${"w".repeat(LONG_TEXT_LENGTH * 2)}.`;
    const pause = countingPause();
    const stepped = await encoder.countInSteps(text, pause.wait);
    const again = countingPause();
    expect(await encoder.countInSteps(`${text}`, again.wait)).toBe(stepped);
    expect(again.count).toBe(0);
    expect(encoder.count(text)).toBe(stepped);
  });

  it("[E-T10] a short text is counted at once, without a pause", async () => {
    const pause = countingPause();
    expect(await getTextEncoder("o200k_base").countInSteps("hello there", pause.wait)).toBe(2);
    expect(pause.count).toBe(0);
  });
});

describe("TiktokenCounter.countMessageInSteps (E-T10)", () => {
  it("[E-T10] gives countMessage's count for a message with long content, tool arguments and a name, and caches it", async () => {
    const message: Message = {
      role: "assistant",
      content: `${run}a`,
      name: "writer",
      tool_calls: [{ id: "call_1", type: "function", function: { name: "save", arguments: JSON.stringify({ data: "b".repeat(200_000) }) } }],
    };
    const copy: Message = structuredClone(message);
    const pause = countingPause();
    const stepped = await new TiktokenCounter({ encoding: "o200k_base" }).countMessageInSteps(message, pause.wait);
    expect(stepped).toBe(new TiktokenCounter({ encoding: "o200k_base" }).countMessage(copy));
    expect(pause.count).toBeGreaterThanOrEqual(2);
  });
});
