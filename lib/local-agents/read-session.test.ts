import { describe, expect, it } from "vitest";
import { completePartOf } from "./read-session";

describe("completePartOf", () => {
  it("[LA5] leaves out a JSONL file's last line while it is still being written", () => {
    expect(completePartOf('{"a":1}\n{"b":', true)).toBe('{"a":1}\n');
    expect(completePartOf('{"a":1}\n{"b":2}\n', true)).toBe('{"a":1}\n{"b":2}\n');
  });

  it("[LA5] keeps a last line without a newline when it is already whole JSON", () => {
    expect(completePartOf('{"a":1}\n{"b":2}', true)).toBe('{"a":1}\n{"b":2}');
  });

  it("[LA5] waits for a JSON document that does not parse yet (rewritten in place)", () => {
    expect(completePartOf('{"messages":[{"id":1}', false)).toBeNull();
    expect(completePartOf('{"messages":[]}', false)).toBe('{"messages":[]}');
  });
});
