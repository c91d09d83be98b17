import { describe, expect, it } from "vitest";
import { indentedJson, indentedJsonPieces, INDENTED_LEVELS } from "./serialize";

describe("indentedJson", () => {
  it("[IN-7] writes what JSON.stringify(value, null, 2) writes for values no deeper than its levels", () => {
    const value = {
      model: "m",
      messages: [
        { role: "user", content: [{ type: "text", text: 'quote " and \\u2028' }] },
        { role: "assistant", content: "", skipped: undefined },
      ],
      tools: [],
      empty: {},
      list: [1, null, true, "x"],
    };
    expect(indentedJson(value)).toBe(JSON.stringify(value, null, 2));
  });

  it("[IN-7] writes values below its levels compact, so size grows with the value, not its depth squared", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 3_900; level += 1) deep = { a: deep };
    const compact = JSON.stringify(deep);
    const text = indentedJson(deep);
    expect(JSON.stringify(JSON.parse(text))).toBe(compact);
    expect(text.length).toBeLessThan(compact.length + INDENTED_LEVELS * (2 * INDENTED_LEVELS + 8));
    expect(JSON.stringify(deep, null, 2).length).toBeGreaterThan(100 * compact.length);
  });

  it("[IN-7] in pieces, writes the same text, and no piece ends inside a string", () => {
    const values: unknown[] = [
      {
        model: "m",
        messages: [
          { role: "user", content: "emoji 😀 and a lone \ud83d" },
          { role: "assistant", content: null, skipped: undefined },
        ],
        tools: [],
        empty: {},
      },
      [1, [2, [3, [4]]], { a: { b: { c: {} } } }, undefined],
      "plain",
      null,
      [],
    ];
    for (const value of values) {
      for (const split of [0, 1, 2, 3]) {
        const pieces = Array.from(indentedJsonPieces(value, split));
        expect(pieces.join("")).toBe(indentedJson(value));
        expect(pieces.map((piece) => JSON.stringify(piece).slice(1, -1)).join("")).toBe(JSON.stringify(indentedJson(value)).slice(1, -1));
      }
    }
  });
});
