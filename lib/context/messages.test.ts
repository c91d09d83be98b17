import { describe, expect, it } from "vitest";
import {
  findToolChains,
  isChainSummary,
  isConversationSummary,
  isEngineSummary,
  isFinalAnswer,
  isToolCallMessage,
  roundOfEachMessage,
  splitRounds,
  TOOL_CHAIN_SUMMARY_PREFIX,
} from "./messages";
import { answer, calls, chainSummary, conversationSummary, result, system, toolCall, user } from "./test-support/conversation";

describe("splitRounds", () => {
  it("[E-R1] a round runs from a user message through the next assistant message without tool calls", () => {
    const history = [user("q1"), calls(toolCall("a")), result("a", "r"), answer("a1"), user("q2"), answer("a2")];
    const rounds = splitRounds(history);
    expect(rounds.map((round) => round.indices)).toEqual([
      [0, 1, 2, 3],
      [4, 5],
    ]);
    expect(rounds.map((round) => [round.start, round.end, round.complete])).toEqual([
      [0, 4, true],
      [4, 6, true],
    ]);
  });

  it("[E-R1] keeps a multi-step tool sequence (a multi-step round) inside one round", () => {
    const history = [user("q"), calls(toolCall("a")), result("a", "r"), calls(toolCall("b")), result("b", "r"), answer("done")];
    expect(splitRounds(history)).toHaveLength(1);
    expect(splitRounds(history)[0].indices).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("[E-R1] system messages belong to no round, even inside a round's span", () => {
    const history = [system("policy"), user("q"), system("note"), answer("a"), system("late")];
    const rounds = splitRounds(history);
    expect(rounds).toHaveLength(1);
    expect(rounds[0].indices).toEqual([1, 3]);
    expect(roundOfEachMessage(history)).toEqual([-1, 0, -1, 0, -1]);
  });

  it("[E-R1] a second user message before the final answer stays in the same round", () => {
    const history = [user("q"), user("also this"), answer("a")];
    expect(splitRounds(history).map((round) => round.indices)).toEqual([[0, 1, 2]]);
  });

  it("[E-R1] an agent speaking twice opens a round without a user message", () => {
    const history = [user("q"), answer("a"), answer("one more thing")];
    const rounds = splitRounds(history);
    expect(rounds.map((round) => round.indices)).toEqual([[0, 1], [2]]);
    expect(rounds[1].complete).toBe(true);
  });

  it("[E-R1] messages before the first user message open a round of their own", () => {
    const history = [system("s"), answer("Hello, how can I help?"), user("q"), answer("a")];
    expect(splitRounds(history).map((round) => round.indices)).toEqual([[1], [2, 3]]);
  });

  it("[E-R1][E-M2] a chain summary (engine-marked) stands for tool calls and ends no round", () => {
    const summary = chainSummary("1 tool call: lookup.");
    const history = [user("q"), summary, answer("a"), user("q2")];
    expect(isChainSummary(summary)).toBe(true);
    expect(isFinalAnswer(summary)).toBe(false);
    expect(splitRounds(history).map((round) => [round.indices, round.complete])).toEqual([
      [[0, 1, 2], true],
      [[3], false],
    ]);
  });

  it("[E-M2][E-R1][E-R3] a model answer that starts with the chain-summary prefix is a final answer: it ends its round and closes the chain", () => {
    const history = [
      user("q1"),
      calls(toolCall("c1")),
      result("c1", "r"),
      answer(`${TOOL_CHAIN_SUMMARY_PREFIX} I checked the booking.`),
      user("q2"),
      answer("ok"),
    ];
    expect(isChainSummary(history[3])).toBe(false);
    expect(isFinalAnswer(history[3])).toBe(true);
    expect(splitRounds(history).map((round) => round.indices)).toEqual([
      [0, 1, 2, 3],
      [4, 5],
    ]);
    expect(findToolChains(history)).toEqual([{ start: 1, end: 3, round: 0, closed: true }]);
  });

  it("[E-M2] engine summaries are recognised by their mark only, whatever their text", () => {
    expect(isChainSummary({ role: "assistant", content: "no prefix at all", engine: { kind: "chain-summary" } })).toBe(true);
    expect(isConversationSummary(conversationSummary("- user: hi"))).toBe(true);
    expect(isConversationSummary(system("[Conversation Summary]\n- user: hi"))).toBe(false);
    expect(isConversationSummary({ role: "user", content: "x", engine: { kind: "conversation-summary" } })).toBe(false);
    expect([chainSummary("x"), conversationSummary("y"), answer("[Tool chain summary] z"), system("[Conversation Summary] w")].map(isEngineSummary)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it("[E-R2] the last round is incomplete until its final answer comes", () => {
    const waiting = splitRounds([user("q1"), answer("a1"), user("q2"), calls(toolCall("a")), result("a", "r")]);
    expect(waiting.map((round) => round.complete)).toEqual([true, false]);
    expect(splitRounds([user("q1"), answer("a1"), user("q2")]).at(-1)?.complete).toBe(false);
    expect(splitRounds([user("q1"), answer("a1")]).at(-1)?.complete).toBe(true);
  });

  it("[E-R1] an empty or system-only history has no rounds", () => {
    expect(splitRounds([])).toEqual([]);
    expect(splitRounds([system("s")])).toEqual([]);
  });
});

describe("isToolCallMessage / isFinalAnswer", () => {
  it("[E-M1] an assistant message with an empty tool_calls list is a final answer", () => {
    const empty = { role: "assistant" as const, content: "done", tool_calls: [] };
    expect(isToolCallMessage(empty)).toBe(false);
    expect(isFinalAnswer(empty)).toBe(true);
    expect(isFinalAnswer(user("q"))).toBe(false);
    expect(isToolCallMessage(calls(toolCall("a")))).toBe(true);
  });
});

describe("findToolChains", () => {
  it("[E-R3] finds a contiguous run of tool calls and results, closed by the final answer", () => {
    const history = [user("q"), calls(toolCall("a")), result("a", "r"), calls(toolCall("b")), result("b", "r"), answer("done")];
    expect(findToolChains(history)).toEqual([{ start: 1, end: 5, round: 0, closed: true }]);
  });

  it("[E-R3] a chain with no final answer after it is open", () => {
    const history = [user("q1"), answer("a1"), user("q2"), calls(toolCall("a"), toolCall("b")), result("a", "r"), result("b", "r")];
    expect(findToolChains(history)).toEqual([{ start: 3, end: 6, round: 1, closed: false }]);
  });

  it("[E-R3] finds every chain, each with its round, and a system message splits a run", () => {
    const history = [
      user("q1"),
      calls(toolCall("a")),
      result("a", "r"),
      answer("a1"),
      user("q2"),
      calls(toolCall("b")),
      result("b", "r"),
      system("note"),
      calls(toolCall("c")),
      result("c", "r"),
      answer("a2"),
      user("q3"),
      calls(toolCall("d")),
      result("d", "r"),
    ];
    expect(findToolChains(history)).toEqual([
      { start: 1, end: 3, round: 0, closed: true },
      { start: 5, end: 7, round: 1, closed: true },
      { start: 8, end: 10, round: 1, closed: true },
      { start: 12, end: 14, round: 2, closed: false },
    ]);
  });

  it("[E-R3] a history without tool calls has no chains", () => {
    expect(findToolChains([user("q"), answer("a")])).toEqual([]);
  });
});
