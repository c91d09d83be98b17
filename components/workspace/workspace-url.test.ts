import { describe, expect, it } from "vitest";
import { readWorkspaceLocation, workspaceHref } from "./workspace-url";

describe("workspace URLs", () => {
  it("round-trips branch, tab, step and view and leaves defaults out", () => {
    const href = workspaceHref("c 1", { branch: "b1", tab: "checkpoints", step: 3, view: "after" });
    expect(href).toBe("/c/c%201?branch=b1&tab=checkpoints&step=3&view=after");
    const search = Object.fromEntries(new URL(href, "http://x").searchParams);
    expect(readWorkspaceLocation(search)).toEqual({ branch: "b1", tab: "checkpoints", step: 3, view: "after" });
    expect(workspaceHref("c1", { tab: "pipeline", step: null, view: "before" })).toBe("/c/c1");
  });

  it("ignores values it does not know", () => {
    expect(readWorkspaceLocation({ tab: "nope", step: "-1", view: "sideways" })).toEqual({});
    expect(readWorkspaceLocation({ step: ["2", "5"], branch: [] })).toEqual({ step: 2 });
  });
});
