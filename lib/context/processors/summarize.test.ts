import { describe, expect, it, vi } from "vitest";
import { makeConfig } from "../config";
import { CONVERSATION_SUMMARY_PREFIX, isConversationSummary, type Message } from "../messages";
import { STATE_KEYS } from "../state";
import type { Summarizer } from "../summarizer";
import { extractiveSummarizer } from "../summarizer";
import { answer, calls, contextWith, conversationSummary, historyOf, result, system, toolCall, user } from "../test-support/conversation";
import { SummarizeProcessor } from "./summarize";

const rounds = (count: number, from = 1) => Array.from({ length: count }, (_, index) => [user(`q${from + index}`), answer(`a${from + index}`)]).flat();
const navigator = makeConfig("navigator");

function mockSummarizer(): Summarizer & ReturnType<typeof vi.fn> {
  return vi.fn(async (messages: readonly Message[]) => `summary of ${messages.map((message) => message.content).join(",")}`) as unknown as Summarizer &
    ReturnType<typeof vi.fn>;
}

describe("SummarizeProcessor", () => {
  it("[E-SU1] at or under the threshold it sets needs_summary = false and changes nothing", async () => {
    const history = [system("policy"), system("more policy"), ...rounds(2), user("q3")];
    const ctx = contextWith(history, navigator);
    expect(await new SummarizeProcessor().process(ctx)).toEqual({});
    expect(ctx.state.get(STATE_KEYS.needsSummary)).toBe(false);
    expect(ctx.state.has(STATE_KEYS.summaryCandidates)).toBe(false);
    expect(historyOf(ctx)).toBe(history);
  });

  it("[E-SU1] over the threshold it marks the oldest complete rounds covering the excess, cut at a round boundary", async () => {
    // 8 non-system messages, threshold 5: an excess of 3 takes two whole rounds (4 messages).
    const history = [system("policy"), ...rounds(4)];
    const ctx = contextWith(history, navigator);
    await new SummarizeProcessor().process(ctx);
    expect(ctx.state.get(STATE_KEYS.needsSummary)).toBe(true);
    expect(ctx.state.get(STATE_KEYS.summaryCandidates)).toEqual(history.slice(1, 5));
    expect(historyOf(ctx)).toBe(history);
  });

  it("[E-SU1] counts only non-system messages and never picks system messages", async () => {
    const history = [system("policy"), user("q1"), system("note"), answer("a1"), ...rounds(2, 2)];
    const ctx = contextWith(history, makeConfig("copilot", { summaryThreshold: 5 }));
    await new SummarizeProcessor().process(ctx);
    expect(ctx.state.get(STATE_KEYS.summaryCandidates)).toEqual([user("q1"), answer("a1")]);
  });

  it("[E-SU1][E-R2] never marks the incomplete round, however long", async () => {
    const history = [user("q"), ...Array.from({ length: 4 }, (_, index) => [calls(toolCall(`c${index}`)), result(`c${index}`, "r")]).flat()];
    const ctx = contextWith(history, navigator);
    await new SummarizeProcessor().process(ctx);
    expect(ctx.state.get(STATE_KEYS.needsSummary)).toBe(false);
    expect(ctx.state.has(STATE_KEYS.summaryCandidates)).toBe(false);
  });

  it("[E-SU1] a disabled (null) threshold never fires", async () => {
    const history = rounds(200);
    const pilot = contextWith(history, makeConfig("pilot"));
    expect(await new SummarizeProcessor({ summarizer: mockSummarizer() }).process(pilot)).toEqual({});
    expect(historyOf(pilot)).toBe(history);
    expect(pilot.state.localKeys()).toEqual([STATE_KEYS.history]);
    const overridden = contextWith(history, navigator);
    await new SummarizeProcessor({ threshold: null }).process(overridden);
    expect(overridden.state.has(STATE_KEYS.needsSummary)).toBe(false);
  });

  it("[E-SU1] the constructor's threshold overrides the config", async () => {
    const ctx = contextWith(rounds(3), navigator);
    await new SummarizeProcessor({ threshold: 2 }).process(ctx);
    expect(ctx.state.get(STATE_KEYS.summaryCandidates)).toEqual(rounds(2));
  });

  it("[E-SU1] clears stale candidates once the history is back under the threshold", async () => {
    const ctx = contextWith(rounds(4), navigator);
    const processor = new SummarizeProcessor();
    await processor.process(ctx);
    expect(ctx.state.has(STATE_KEYS.summaryCandidates)).toBe(true);
    ctx.state.set(STATE_KEYS.history, rounds(1));
    await processor.process(ctx);
    expect(ctx.state.has(STATE_KEYS.summaryCandidates)).toBe(false);
    expect(ctx.state.get(STATE_KEYS.needsSummary)).toBe(false);
  });

  it("[E-SU2] with a summarizer, replaces the candidates by one [Conversation Summary] system message", async () => {
    const history = [system("policy"), ...rounds(4)];
    const summarizer = mockSummarizer();
    const ctx = contextWith(history, navigator);
    const { effects } = await new SummarizeProcessor({ summarizer }).process(ctx);
    expect(summarizer).toHaveBeenCalledWith(history.slice(1, 5), { purpose: "conversation", previousSummary: undefined });
    expect(historyOf(ctx)).toEqual([system("policy"), conversationSummary("summary of q1,a1,q2,a2"), ...history.slice(5)]);
    expect(ctx.state.get(STATE_KEYS.needsSummary)).toBe(false);
    expect(effects).toEqual([{ kind: "summarised", before: [[1, 5]], after: [[1, 2]] }]);
  });

  it("[E-SU2] extends an earlier summary: its text goes to the summarizer and one summary remains, in its place", async () => {
    const earlier = conversationSummary("the user booked HAT136");
    const history = [system("policy"), earlier, ...rounds(4, 10)];
    const summarizer = mockSummarizer();
    const ctx = contextWith(history, navigator);
    await new SummarizeProcessor({ summarizer }).process(ctx);
    expect(summarizer.mock.calls[0][1]).toEqual({ purpose: "conversation", previousSummary: "the user booked HAT136" });
    const after = historyOf(ctx);
    expect(after.filter(isConversationSummary)).toHaveLength(1);
    expect(after[1].content).toBe(`${CONVERSATION_SUMMARY_PREFIX}\nsummary of q10,a10,q11,a11`);
    expect(after.slice(2)).toEqual(history.slice(6));
  });

  it("[E-SU2][E-SM1] with the extractive summarizer the summary says what was asked and answered", async () => {
    const ctx = contextWith([system("policy"), user("Cancel reservation ZFA04Y"), answer("Cancelled."), ...rounds(4)], navigator);
    await new SummarizeProcessor({ summarizer: extractiveSummarizer }).process(ctx);
    const summary = historyOf(ctx).find(isConversationSummary)?.content ?? "";
    expect(summary).toContain("Cancel reservation ZFA04Y");
    expect(summary).toContain("Cancelled.");
  });

  it("[E-SU2][E-M2] a system message that only looks like a summary is the user's: never extended or replaced", async () => {
    const lookalike = system(`${CONVERSATION_SUMMARY_PREFIX}\nwritten by the user`);
    const history = [system("policy"), lookalike, ...rounds(4)];
    const summarizer = mockSummarizer();
    const ctx = contextWith(history, navigator);
    await new SummarizeProcessor({ summarizer }).process(ctx);
    expect(summarizer.mock.calls[0][1]).toEqual({ purpose: "conversation", previousSummary: undefined });
    expect(historyOf(ctx).slice(0, 3)).toEqual([system("policy"), lookalike, conversationSummary("summary of q1,a1,q2,a2")]);
    expect(historyOf(ctx).filter(isConversationSummary)).toHaveLength(1);
  });

  it("[E-SU1] never takes the last round, even when every round is complete", async () => {
    const ctx = contextWith([system("policy"), ...rounds(3)], makeConfig("copilot", { summaryThreshold: 1 }));
    await new SummarizeProcessor({ summarizer: extractiveSummarizer }).process(ctx);
    const history = historyOf(ctx);
    expect(history.slice(-2).map((message) => message.content)).toEqual(["q3", "a3"]);
    expect(history.filter(isConversationSummary)).toHaveLength(1);
  });
});
