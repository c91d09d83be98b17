import { describe, expect, it, vi } from "vitest";
import { splitRounds, TOOL_CHAIN_SUMMARY_PREFIX, type Message } from "../messages";
import { hasIntactToolPairs } from "../sanitize";
import type { Summarizer } from "../summarizer";
import { extractiveSummarizer } from "../summarizer";
import { answer, calls, contextWith, historyOf, longText, result, system, toolCall, toolRound, user } from "../test-support/conversation";
import { ContextError } from "../errors";
import { TiktokenCounter } from "../tokens/counter";
import { DialogueCompressor } from "./dialogue-compressor";

function mockSummarizer(text = "looked it up"): Summarizer & ReturnType<typeof vi.fn> {
  return vi.fn(async (messages: readonly Message[]) => `${text} (${messages.length} messages)`) as unknown as Summarizer & ReturnType<typeof vi.fn>;
}

describe("DialogueCompressor", () => {
  it("[E-C1] replaces a closed chain with one assistant message holding the summary", async () => {
    const history = toolRound("Where is my bag?", "call_0", '{"status":"delayed"}', "It is delayed.");
    const summarizer = mockSummarizer();
    const ctx = contextWith(history);
    const { effects } = await new DialogueCompressor({ summarizer }).process(ctx);
    expect(historyOf(ctx)).toEqual([
      history[0],
      { role: "assistant", content: `${TOOL_CHAIN_SUMMARY_PREFIX} looked it up (2 messages)`, engine: { kind: "chain-summary" } },
      history[3],
    ]);
    expect(effects).toEqual([{ kind: "compressed", before: [[1, 3]], after: [[1, 2]] }]);
  });

  it("[E-C1] a mock summarizer receives exactly the chain's messages", async () => {
    const history = [
      user("Cancel my trip"),
      calls(toolCall("call_0", "get_user_details", '{"user_id":"mia_li_3668"}')),
      result("call_0", "{...user...}", "get_user_details"),
      calls(toolCall("call_0", "get_reservation_details"), toolCall("call_1", "get_reservation_details")),
      result("call_0", "{...r1...}"),
      result("call_1", "{...r2...}"),
      answer("Which one?"),
    ];
    const summarizer = mockSummarizer();
    await new DialogueCompressor({ summarizer }).process(contextWith(history));
    expect(summarizer).toHaveBeenCalledTimes(1);
    const [messages, options] = summarizer.mock.calls[0];
    expect(messages).toHaveLength(5);
    messages.forEach((message: Message, offset: number) => expect(message).toBe(history[1 + offset]));
    expect(options).toEqual({ purpose: "tool-chain" });
  });

  it("[E-C1] compresses every closed chain, each through the summarizer once", async () => {
    const history = [system("policy"), ...toolRound("q1", "call_0", "r1", "a1"), ...toolRound("q2", "call_0", "r2", "a2"), user("q3"), answer("a3")];
    const summarizer = mockSummarizer();
    const ctx = contextWith(history);
    const { effects } = await new DialogueCompressor({ summarizer }).process(ctx);
    expect(summarizer).toHaveBeenCalledTimes(2);
    expect(historyOf(ctx).map((message) => message.content?.startsWith(TOOL_CHAIN_SUMMARY_PREFIX) ?? false)).toEqual([
      false,
      false,
      true,
      false,
      false,
      true,
      false,
      false,
      false,
    ]);
    expect(effects?.map((effect) => [effect.before, effect.after])).toEqual([
      [[[2, 4]], [[2, 3]]],
      [[[6, 8]], [[5, 6]]],
    ]);
  });

  it("[E-C2] leaves the chain of the incomplete round alone", async () => {
    const history = [...toolRound("q1", "call_0", "r1", "a1"), user("q2"), calls(toolCall("call_0", "search")), result("call_0", "r2")];
    const summarizer = mockSummarizer();
    const ctx = contextWith(history);
    await new DialogueCompressor({ summarizer }).process(ctx);
    const after = historyOf(ctx);
    expect(after).toHaveLength(history.length - 1);
    expect(after.slice(-3)).toEqual(history.slice(-3));
    after.slice(-3).forEach((message, offset) => expect(message).toBe(history[history.length - 3 + offset]));
    expect(summarizer).toHaveBeenCalledTimes(1);
  });

  it("[E-C2] compresses nothing while the only chain is still open", async () => {
    const history = [user("q"), calls(toolCall("a")), result("a", "r")];
    const summarizer = mockSummarizer();
    const ctx = contextWith(history);
    expect(await new DialogueCompressor({ summarizer }).process(ctx)).toEqual({});
    expect(historyOf(ctx)).toBe(history);
    expect(summarizer).not.toHaveBeenCalled();
  });

  it("[E-C1] skips chains shorter than minChainLength", async () => {
    const short = toolRound("q1", "a", "r", "a1");
    const long = [user("q2"), calls(toolCall("b")), result("b", "r"), calls(toolCall("c")), result("c", "r"), answer("a2")];
    const summarizer = mockSummarizer();
    const ctx = contextWith([...short, ...long]);
    await new DialogueCompressor({ summarizer, minChainLength: 3 }).process(ctx);
    expect(summarizer).toHaveBeenCalledTimes(1);
    expect(historyOf(ctx).slice(0, 4)).toEqual(short);
    expect(historyOf(ctx)).toHaveLength(7);
    expect(new DialogueCompressor({ summarizer }).minChainLength).toBe(2);
  });

  it("[E-C1] keeps a summarizer's own [Tool chain summary] prefix without doubling it", async () => {
    const ctx = contextWith(toolRound("q", "a", "r", "done"));
    await new DialogueCompressor({ summarizer: async () => `  ${TOOL_CHAIN_SUMMARY_PREFIX} already prefixed  ` }).process(ctx);
    expect(historyOf(ctx)[1].content).toBe(`${TOOL_CHAIN_SUMMARY_PREFIX} already prefixed`);
  });

  it("[E-R1][E-P1] never changes the round count and keeps tool pairs intact", async () => {
    const history = [
      system("policy"),
      ...toolRound("q1", "call_0", longText(600), "a1"),
      answer("and another thing"),
      calls(toolCall("call_0", "f")),
      result("call_0", longText(600)),
      answer("a2"),
      user("q3"),
      calls(toolCall("x"), toolCall("y")),
      result("y", "ry"),
      result("x", "rx"),
    ];
    const ctx = contextWith(history);
    await new DialogueCompressor({ summarizer: extractiveSummarizer }).process(ctx);
    const after = historyOf(ctx);
    expect(splitRounds(after).map((round) => round.complete)).toEqual(splitRounds(history).map((round) => round.complete));
    expect(hasIntactToolPairs(after)).toBe(true);
    expect(after.filter((message) => message.role === "tool")).toHaveLength(2);
  });

  it("[E-C1] a summarizer that fails leaves the history as it was", async () => {
    const history = toolRound("q", "a", "r", "done");
    const ctx = contextWith(history);
    await expect(new DialogueCompressor({ summarizer: async () => Promise.reject(new Error("model down")) }).process(ctx)).rejects.toThrow("model down");
    expect(historyOf(ctx)).toBe(history);
  });

  it("[E-C3] keeps a chain whose summary is not shorter, and compresses the one whose summary is", async () => {
    const longResult = JSON.stringify({ rows: Array.from({ length: 40 }, (_, row) => ({ row, status: "delayed" })) });
    const history = [...toolRound("q1", "call_0", "ok", "a1"), ...toolRound("q2", "call_1", longResult, "a2"), user("q3"), answer("a3")];
    // The same mid-sized text for both chains: longer than the short chain, far shorter than the long one.
    const summarizer: Summarizer = async () => "looked the flight up and found it delayed, with every row of the answer saying so, twice over";
    const counter = new TiktokenCounter({ encoding: "cl100k_base" });
    const ctx = contextWith(history);
    const { effects } = await new DialogueCompressor({ summarizer }).process(ctx);
    const after = historyOf(ctx);
    expect(after.slice(0, 4)).toEqual(history.slice(0, 4));
    expect(after[5]).toMatchObject({ engine: { kind: "chain-summary" } });
    expect(effects).toEqual([{ kind: "compressed", before: [[5, 7]], after: [[5, 6]] }]);
    expect(counter.countMessages(after)).toBeLessThan(counter.countMessages(history));
  });

  it("[E-C3] leaves the history itself when no summary is shorter than its chain", async () => {
    const history = toolRound("q", "call_0", "ok", "done");
    const ctx = contextWith(history);
    const { effects } = await new DialogueCompressor({
      summarizer: async () => "a summary far longer than the tiny chain it stands for, word after word",
    }).process(ctx);
    expect(historyOf(ctx)).toBe(history);
    expect(effects).toBeUndefined();
  });

  it("[E-2] needs a summarizer function, refused with a ContextError", () => {
    expect(() => new DialogueCompressor({} as never)).toThrow(ContextError);
  });
});
