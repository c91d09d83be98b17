import { describe, expect, it } from "vitest";
import { Context } from "../context";
import { ProcessorPipeline } from "../pipeline";
import { STATE_KEYS } from "../state";
import { longText } from "../test-support/conversation";
import { reloadOffloaded } from "../tools";
import { ToolResultOffloader, type ToolResultPayload } from "./tool-result-offloader";

const HANDLE = /\[\[OFFLOADED: handle=(off_[0-9a-f]{12})\]\]/;

describe("ToolResultOffloader", () => {
  it("[E-O3] runs on post_tool_call and leaves a result within the limit alone", () => {
    const offloader = new ToolResultOffloader({ maxSize: 100 });
    const ctx = new Context("t");
    const payload: ToolResultPayload = { tool_result: "small", tool_name: "search" };
    expect(offloader.event).toBe("post_tool_call");
    expect(offloader.process(ctx, payload)).toEqual({});
    expect(payload).toEqual({ tool_result: "small", tool_name: "search" });
    expect(ctx.state.has(STATE_KEYS.offloadedResults)).toBe(false);
  });

  it("[E-O3] stores a large result whole and leaves its head plus a note of the full size and the handle", async () => {
    const full = longText(600);
    const ctx = new Context("t");
    const payload: ToolResultPayload = { tool_result: full, tool_name: "search_flights", tool_call_id: "call_0" };
    const { effects } = new ToolResultOffloader({ maxSize: 500, headSize: 40 }).process(ctx, payload);
    const handle = payload.offload_handle!;
    expect(handle).toMatch(/^off_[0-9a-f]{12}$/);
    expect(payload.tool_result.startsWith(full.slice(0, 40))).toBe(true);
    expect(payload.tool_result).not.toContain(full.slice(0, 41));
    expect(payload.tool_result).toContain("showing 40 of 600 characters");
    expect(payload.tool_result).toContain("search_flights");
    expect(HANDLE.exec(payload.tool_result)?.[1]).toBe(handle);
    expect(ctx.state.get(STATE_KEYS.offloadedResults)).toEqual({ [handle]: full });
    expect(await reloadOffloaded(ctx, handle)).toBe(full);
    expect(effects).toEqual([expect.objectContaining({ kind: "truncated", handle })]);
  });

  it("[E-O3] refers to the artifact instead of keeping a head when the result was stored as one", async () => {
    const full = longText(600, "report");
    const ctx = new Context("t");
    const payload: ToolResultPayload = { tool_result: full, tool_name: "export", artifact_id: "artifact_42" };
    new ToolResultOffloader({ maxSize: 500 }).process(ctx, payload);
    expect(payload.tool_result).toContain("artifact_42");
    expect(payload.tool_result).toContain("600 characters");
    expect(payload.tool_result).not.toContain(full.slice(0, 30));
    expect(await reloadOffloaded(ctx, payload.offload_handle!)).toBe(full);
  });

  it("[E-O3] offloads a result flagged large_output whatever its size", () => {
    const ctx = new Context("t");
    const payload: ToolResultPayload = { tool_result: "tiny but flagged", large_output: true };
    new ToolResultOffloader({ maxSize: 5_000 }).process(ctx, payload);
    expect(payload.offload_handle).toBeDefined();
    expect(ctx.state.get(STATE_KEYS.offloadedResults)?.[payload.offload_handle!]).toBe("tiny but flagged");
    expect(payload.tool_result).toContain("of 16 characters");
  });

  it("[E-O3] defaults to 5 000 characters and a head of a fifth of that, at most 1 000", () => {
    expect(new ToolResultOffloader()).toMatchObject({ maxSize: 5_000, headSize: 1_000 });
    expect(new ToolResultOffloader({ maxSize: 100 }).headSize).toBe(20);
    const ctx = new Context("t");
    const atLimit: ToolResultPayload = { tool_result: "x".repeat(5_000) };
    new ToolResultOffloader().process(ctx, atLimit);
    expect(atLimit.offload_handle).toBeUndefined();
  });

  it("[E-O3] counts characters as code points and never cuts a character in half", () => {
    const emoji = "😀".repeat(12);
    const ctx = new Context("t");
    const payload: ToolResultPayload = { tool_result: emoji };
    new ToolResultOffloader({ maxSize: 10, headSize: 3 }).process(ctx, payload);
    expect(payload.tool_result.startsWith("😀😀😀\n")).toBe(true);
    expect(payload.tool_result).toContain("showing 3 of 12 characters");
    expect(payload.tool_result).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    const withinLimit: ToolResultPayload = { tool_result: "😀".repeat(10) };
    new ToolResultOffloader({ maxSize: 10 }).process(ctx, withinLimit);
    expect(withinLimit.offload_handle).toBeUndefined();
  });

  it("[E-O4] gives the same result the same handle, and keeps earlier results", () => {
    const ctx = new Context("t");
    const offloader = new ToolResultOffloader({ maxSize: 10 });
    const first: ToolResultPayload = { tool_result: longText(50, "one") };
    const again: ToolResultPayload = { tool_result: longText(50, "one") };
    const other: ToolResultPayload = { tool_result: longText(50, "two") };
    for (const payload of [first, again, other]) offloader.process(ctx, payload);
    expect(again.offload_handle).toBe(first.offload_handle);
    expect(other.offload_handle).not.toBe(first.offload_handle);
    expect(Object.keys(ctx.state.get(STATE_KEYS.offloadedResults) ?? {})).toHaveLength(2);
  });

  it("[E-O3] replaces the result in the payload given to the pipeline's post_tool_call", async () => {
    const pipeline = new ProcessorPipeline({ now: () => 0 }).register(new ToolResultOffloader({ maxSize: 100 }));
    const ctx = new Context("t");
    const payload: ToolResultPayload = { tool_result: longText(1_000) };
    const trace = await pipeline.fire("post_tool_call", ctx, payload);
    expect(trace.steps.map((step) => step.processor)).toEqual(["tool_result_offloader"]);
    expect(trace.steps[0].stateKeys).toEqual([STATE_KEYS.offloadedResults]);
    expect(payload.tool_result.length).toBeLessThan(200);
    expect(await pipeline.fire("pre_llm_call", ctx)).toEqual({ event: "pre_llm_call", steps: [] });
  });

  it("ignores a payload without a string result", () => {
    const ctx = new Context("t");
    expect(new ToolResultOffloader({ maxSize: 1 }).process(ctx, {} as ToolResultPayload)).toEqual({});
  });
});
