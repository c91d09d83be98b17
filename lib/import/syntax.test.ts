import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture } from "@/tests/fixtures/import/load";
import { parseConversations } from "./index";
import { findSyntaxError, offsetFromEngineMessage } from "./syntax";

/** Malformed inputs with the problem our locator names; V8 reports the same offset for each. */
const malformed: [string, string][] = [
  ['{"a":1,}', "expected a property name after ',' (trailing commas are not allowed)"],
  ["[1,2", "unexpected end of input: the array opened at line 1, column 1 is not closed"],
  ['{"a" 1}', "expected ':' after a property name"],
  ["[1 2]", "expected ',' or ']' after an array element"],
  ['{"a":"x\ny"}', "unescaped line break in a string (write it as an escape, or close the string)"],
  ["{a:1}", "property names must be double-quoted strings"],
  ["[01]", "expected ',' or ']' after an array element (numbers cannot have leading zeros)"],
  ["[1.]", "expected a digit after the decimal point"],
  ["[1e]", "expected a digit in the exponent"],
  ["[tru]", "invalid literal: expected 'true'"],
  ['["\\q"]', "invalid escape '\\q' in a string"],
  ['["\\u12G4"]', "invalid \\u escape: expected 4 hexadecimal digits"],
  ["{}{}", "unexpected content after the JSON value (JSONL needs one JSON value on each line)"],
  ["[1,]", "expected a value after ',' (trailing commas are not allowed)"],
  ['["abc', "unexpected end of input: the string opened at line 1, column 2 is not closed"],
  ['{"a":-}', "expected a digit after '-'"],
  ["[NaN]", "unexpected character 'N': expected a JSON value"],
  ["// c\n[]", "comments are not allowed in JSON"],
  ['{"a":1 "b":2}', "expected ',' or '}' after a property value"],
  ["{'a':1}", "property names must use double quotes, not single quotes"],
  ["['a']", "strings must use double quotes, not single quotes"],
  ['{"a":}', "unexpected character '}': expected a JSON value"],
  ['{"a":1', "unexpected end of input: the object opened at line 1, column 1 is not closed"],
  ['[\n  {"role": "user"}\n  {"role": "assistant"}\n]', "expected ',' or ']' after an array element"],
];

function engineMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} parsed`);
}

describe("findSyntaxError", () => {
  it.each(malformed)("names the problem in %j", (text, message) => {
    expect(findSyntaxError(text)?.message).toBe(message);
  });

  it.each(malformed)("agrees with the engine's position for %j", (text) => {
    const message = engineMessage(text);
    const offset = findSyntaxError(text)?.offset ?? -1;
    const engine = offsetFromEngineMessage(text, message);
    // V8 gives no position for "Unexpected token ']', ... is not valid JSON"; the token must then be ours.
    if (engine !== undefined) expect(offset).toBe(engine);
    else expect(message).toContain(`Unexpected token '${text[offset]}'`);
  });

  it("accepts every valid document", () => {
    for (const text of ['{"a":[1,-2.5e+3,true,false,null,"\\u00e9\\n"]}', "  0 ", '""', "[[[]]]", '{"":{}}']) {
      expect(findSyntaxError(text)).toBeUndefined();
    }
  });

  it("survives nesting deeper than a recursive parser's stack", () => {
    const deep = "[".repeat(100_000) + "]".repeat(99_999);
    expect(findSyntaxError(deep)?.message).toMatch(/^unexpected end of input: the array opened at line 1, column 1 is not closed/);
  });

  it("scans only the given range", () => {
    const text = 'xx{"a":1,}yy';
    expect(findSyntaxError(text, 2, 10)).toEqual({ offset: 9, message: "expected a property name after ',' (trailing commas are not allowed)" });
  });
});

describe("offsetFromEngineMessage", () => {
  const text = '{\n  "a": 1,\n  "b" 2\n}';
  it("reads V8's position (Node 20)", () => {
    expect(offsetFromEngineMessage(text, "Unexpected number in JSON at position 18")).toBe(18);
  });
  it("reads V8's line and column (Node 22 and later)", () => {
    expect(offsetFromEngineMessage(text, "Unexpected number in JSON at position 18 (line 3 column 7)")).toBe(18);
  });
  it("reads Firefox's line and column", () => {
    expect(offsetFromEngineMessage(text, "JSON.parse: expected ':' after property name in object at line 3 column 7 of the JSON data")).toBe(18);
  });
  it("returns undefined for messages without a position (Safari)", () => {
    expect(offsetFromEngineMessage(text, "JSON Parse error: Expected ':' before value in object property definition")).toBeUndefined();
  });
});

describe("JSON syntax errors from parseConversations", () => {
  it("give line and column of a missing comma between messages", () => {
    const error = importErrorOf(() => parseConversations(readFixture("import/malformed-missing-comma.json")));
    expect(error.issues).toEqual([{ message: "expected ',' or ']' after an array element", path: "", line: 15, column: 5 }]);
    expect(error.message).toBe("could not import: line 15, column 5: expected ',' or ']' after an array element");
  });

  it("point into the line of a pretty-printed document", () => {
    const text = '{\n  "messages": [\n    {"role": "user", "content": "hi",}\n  ]\n}';
    expect(importErrorOf(() => parseConversations(text)).issues).toEqual([
      { message: "expected a property name after ',' (trailing commas are not allowed)", path: "", line: 3, column: 38 },
    ]);
  });

  it("count columns after a byte-order mark from the first visible character", () => {
    const error = importErrorOf(() => parseConversations("\uFEFF[1,]"));
    expect(error.issues[0]).toMatchObject({ line: 1, column: 4 });
  });
});
