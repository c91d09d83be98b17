import { describe, expect, it } from "vitest";
import { Context } from "./context";
import { ContextError } from "./errors";
import { STATE_KEYS } from "./state";
import { getContextTools, reloadOffloaded, runContextTool, type KnowledgeItem } from "./tools";

function contextWithOffloads(): Context {
  const ctx = new Context("task");
  ctx.state.set(STATE_KEYS.offloadedMessages, { off_aaaaaaaaaaaa: "the original message\r\n with  spacing 😀" });
  ctx.state.set(STATE_KEYS.offloadedResults, { off_bbbbbbbbbbbb: '{"flights": []}' });
  return ctx;
}

describe("reloadOffloaded", () => {
  it("[E-O2] returns the exact original of an offloaded message or tool result", async () => {
    const ctx = contextWithOffloads();
    expect(await reloadOffloaded(ctx, "off_aaaaaaaaaaaa")).toBe("the original message\r\n with  spacing 😀");
    expect(await reloadOffloaded(ctx, "off_bbbbbbbbbbbb")).toBe('{"flights": []}');
  });

  it("[E-O2] an unknown handle throws ContextError naming it", async () => {
    const error = await reloadOffloaded(contextWithOffloads(), "off_cccccccccccc").catch((failure: unknown) => failure);
    expect(ContextError.isInstance(error)).toBe(true);
    expect((error as ContextError).message).toContain("off_cccccccccccc");
    await expect(reloadOffloaded(new Context("empty"), "off_aaaaaaaaaaaa")).rejects.toThrow(ContextError);
  });

  it("[E-O2] a forked child reloads what its parent offloaded", async () => {
    const child = contextWithOffloads().fork("child");
    expect(await reloadOffloaded(child, "off_bbbbbbbbbbbb")).toBe('{"flights": []}');
  });
});

describe("getContextTools", () => {
  it("[E-TL1] returns reload_offloaded, todo_write, todo_read and search_knowledge with JSON-schema definitions and handlers", () => {
    const tools = getContextTools();
    expect(tools.map((tool) => tool.definition.function.name)).toEqual(["reload_offloaded", "todo_write", "todo_read", "search_knowledge"]);
    for (const tool of tools) {
      expect(tool.definition.type).toBe("function");
      expect(tool.definition.function.description?.length).toBeGreaterThan(10);
      expect(tool.definition.function.parameters?.type).toBe("object");
      expect(typeof tool.handler).toBe("function");
    }
    expect(tools[0].definition.function.parameters?.required).toEqual(["handle"]);
  });
});

describe("runContextTool", () => {
  it("[E-TL1][E-O2] reload_offloaded returns the original", async () => {
    expect(await runContextTool(contextWithOffloads(), "reload_offloaded", '{"handle":"off_aaaaaaaaaaaa"}')).toBe("the original message\r\n with  spacing 😀");
    await expect(runContextTool(contextWithOffloads(), "reload_offloaded", "{}")).rejects.toThrow(/argument 'handle'/);
  });

  it("[E-TL1] todo_write replaces the checklist and todo_read renders it", async () => {
    const ctx = new Context("task");
    expect(await runContextTool(ctx, "todo_read", "")).toBe("The checklist is empty.");
    const written = await runContextTool(
      ctx,
      "todo_write",
      JSON.stringify({ items: [{ text: "Find the reservation", status: "done" }, { id: "b", text: "Cancel it", status: "in_progress" }, { text: "Refund" }] }),
    );
    expect(written).toBe("[x] 1. Find the reservation\n[~] b. Cancel it\n[ ] 3. Refund");
    expect(await runContextTool(ctx, "todo_read", "{}")).toBe(written);
    expect(ctx.state.get("todos")).toEqual([
      { id: "1", text: "Find the reservation", status: "done" },
      { id: "b", text: "Cancel it", status: "in_progress" },
      { id: "3", text: "Refund", status: "pending" },
    ]);
  });

  it("[E-TL1] todo_write rejects malformed items with where the problem is", async () => {
    const ctx = new Context("task");
    await expect(runContextTool(ctx, "todo_write", '{"items":"not a list"}')).rejects.toThrow(/'items' must be an array/);
    const error = await runContextTool(ctx, "todo_write", '{"items":[{"text":"a","status":"maybe"}]}').catch((failure: unknown) => failure);
    expect(error).toMatchObject({ where: "items[0].status" });
    await expect(runContextTool(ctx, "todo_write", '{"items":[{"status":"done"}]}')).rejects.toThrow(/items\[0\]\.text/);
  });

  it("[E-TL1] search_knowledge ranks the state's knowledge with BM25", async () => {
    const ctx = new Context("task");
    const knowledge: KnowledgeItem[] = [
      { id: "k1", title: "Baggage", text: "Gold members get three free checked bags." },
      { id: "k2", title: "Refunds", text: "Cancelled flights are refunded to the original payment method." },
      { id: "k3", title: "Insurance", text: "Travel insurance covers cancellation for health reasons." },
    ];
    ctx.state.set("knowledge", knowledge);
    const answer = await runContextTool(ctx, "search_knowledge", '{"query":"refund for a cancelled flight","limit":1}');
    expect(answer).toBe("1. [k2] Refunds\nCancelled flights are refunded to the original payment method.");
    expect(await runContextTool(ctx, "search_knowledge", '{"query":"submarine"}')).toBe("No knowledge matches 'submarine'.");
    ctx.state.set("knowledge", [{ id: "k9", text: "Untitled note about seat maps." }]);
    expect(await runContextTool(ctx, "search_knowledge", '{"query":"seat"}')).toBe("1. [k9]\nUntitled note about seat maps.");
    await expect(runContextTool(ctx, "search_knowledge", '{"query":""}')).rejects.toThrow(ContextError);
  });

  it("[E-TL1] an unknown tool or bad arguments throw ContextError", async () => {
    const ctx = new Context("task");
    await expect(runContextTool(ctx, "rm_rf", "{}")).rejects.toThrow(/unknown context tool 'rm_rf'/);
    const invalid = await runContextTool(ctx, "todo_read", "{not json").catch((failure: unknown) => failure);
    expect(ContextError.isInstance(invalid)).toBe(true);
    expect((invalid as ContextError).cause).toBeInstanceOf(SyntaxError);
    await expect(runContextTool(ctx, "todo_read", "[1,2]")).rejects.toThrow(/must be a JSON object/);
    await expect(runContextTool(ctx, "todo_read", "null")).rejects.toThrow(/must be a JSON object/);
  });
});
