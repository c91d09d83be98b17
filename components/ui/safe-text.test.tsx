import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { revealInvisible, safeLabel } from "./reveal-invisible";
import { SafeText } from "./safe-text";

const SPOOF = "\u202Egnp.exe";

describe("SafeText", () => {
  it("[S8] shows a right-to-left override as a marked code point instead of obeying it", () => {
    const { container } = render(<SafeText text={SPOOF} />);
    const isolate = container.querySelector("bdi");
    expect(isolate).not.toBeNull();
    expect(isolate?.textContent).toBe("U+202Egnp.exe");
    expect(isolate?.textContent).not.toContain("\u202E");
    expect(container.querySelector("[data-invisible]")?.getAttribute("title")).toBe("RIGHT-TO-LEFT OVERRIDE");
  });

  it("[S8] marks zero-width and control characters and keeps newlines and tabs", () => {
    expect(revealInvisible("a\u200Bb\u0007c\n\td")).toEqual([
      { kind: "text", text: "a" },
      { kind: "invisible", code: "U+200B", name: "ZERO WIDTH SPACE" },
      { kind: "text", text: "b" },
      { kind: "invisible", code: "U+0007", name: "invisible or control character" },
      { kind: "text", text: "c\n\td" },
    ]);
  });

  it("[S8] leaves ordinary text, emoji and joined emoji sequences readable", () => {
    expect(revealInvisible("plain text 😀")).toEqual([{ kind: "text", text: "plain text 😀" }]);
    expect(revealInvisible("family 👨\u200D👩\u200D👧 ❤\uFE0F")).toEqual([{ kind: "text", text: "family 👨\u200D👩\u200D👧 ❤\uFE0F" }]);
  });
});

describe("safeLabel", () => {
  it("[S8] writes invisible characters out and isolates right-to-left text for plain-string places", () => {
    expect(safeLabel(SPOOF)).toBe("[U+202E]gnp.exe");
    expect(safeLabel("שלום 12")).toBe("\u2068שלום 12\u2069");
    expect(safeLabel("main")).toBe("main");
  });
});
