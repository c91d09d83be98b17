import { describe, expect, it } from "vitest";
import { makeConfig } from "../config";
import { hasIntactToolPairs } from "../sanitize";
import { answer, calls, contextWith, historyOf, result, system, toolCall, toolRound, user } from "../test-support/conversation";
import { ContextError } from "../errors";
import { RoundWindowProcessor } from "./round-window";

const rounds = (count: number) => Array.from({ length: count }, (_, index) => [user(`q${index + 1}`), answer(`a${index + 1}`)]).flat();

describe("RoundWindowProcessor", () => {
  it("[E-W1] keeps the last maxRounds rounds", () => {
    const ctx = contextWith(rounds(5));
    const { effects } = new RoundWindowProcessor({ maxRounds: 2 }).process(ctx);
    expect(historyOf(ctx).map((message) => message.content)).toEqual(["q4", "a4", "q5", "a5"]);
    expect(effects).toEqual([{ kind: "dropped", before: [[0, 6]], after: [] }]);
  });

  it("[E-W1][E-M2] a model answer that starts like a chain summary ends its round: a window of 1 keeps only the last", () => {
    const history = [user("q1"), calls(toolCall("c1")), result("c1", "r"), answer("[Tool chain summary] I checked the booking."), user("q2"), answer("ok")];
    const ctx = contextWith(history);
    new RoundWindowProcessor({ maxRounds: 1 }).process(ctx);
    expect(historyOf(ctx)).toEqual([user("q2"), answer("ok")]);
  });

  it("[E-W1] defaults to config.historyRounds", () => {
    const ctx = contextWith(rounds(12), makeConfig("navigator"));
    new RoundWindowProcessor().process(ctx);
    expect(historyOf(ctx)).toHaveLength(20);
    expect(historyOf(ctx)[0].content).toBe("q3");
    const pilot = contextWith(rounds(12), makeConfig("pilot"));
    new RoundWindowProcessor().process(pilot);
    expect(historyOf(pilot)).toHaveLength(24);
  });

  it("[E-W1] leaves a history within the window as it is", () => {
    const history = rounds(3);
    const ctx = contextWith(history);
    expect(new RoundWindowProcessor({ maxRounds: 3 }).process(ctx)).toEqual({});
    expect(historyOf(ctx)).toBe(history);
  });

  it("[E-W1] keeps system messages in place", () => {
    const history = [
      system("policy"),
      user("q1"),
      system("mid-round note"),
      answer("a1"),
      system("between"),
      user("q2"),
      answer("a2"),
      user("q3"),
      answer("a3"),
    ];
    const ctx = contextWith(history);
    new RoundWindowProcessor({ maxRounds: 1 }).process(ctx);
    expect(historyOf(ctx).map((message) => message.content)).toEqual(["policy", "mid-round note", "between", "q3", "a3"]);
  });

  it("[E-W1][E-R2] the incomplete round counts as one and always stays", () => {
    const history = [...rounds(3), user("q4"), calls(toolCall("call_0")), result("call_0", "r")];
    const ctx = contextWith(history);
    new RoundWindowProcessor({ maxRounds: 2 }).process(ctx);
    expect(historyOf(ctx).map((message) => message.content)).toEqual(["q3", "a3", "q4", null, "r"]);
    const one = contextWith(history);
    new RoundWindowProcessor({ maxRounds: 1 }).process(one);
    expect(historyOf(one)).toEqual(history.slice(-3));
  });

  it("[E-W1][E-P1] drops whole rounds: tool sequences inside go together (mixed sequences)", () => {
    const history = [
      system("policy"),
      ...toolRound("q1", "call_0", "r1", "a1"),
      user("q2"),
      answer("a2"),
      user("q3"),
      calls(toolCall("call_0")),
      result("call_0", "r"),
      calls(toolCall("call_0"), toolCall("call_1")),
      result("call_0", "r"),
      result("call_1", "r"),
      answer("a3"),
    ];
    const ctx = contextWith(history);
    new RoundWindowProcessor({ maxRounds: 1 }).process(ctx);
    expect(historyOf(ctx)).toEqual([history[0], ...history.slice(7)]);
    expect(hasIntactToolPairs(historyOf(ctx))).toBe(true);
  });

  it("[E-W1][E-CFG4] keeps at least one round: maxRounds below 1 is refused with a ContextError", () => {
    for (const maxRounds of [0, -1, 1.5]) expect(() => new RoundWindowProcessor({ maxRounds })).toThrow(ContextError);
    const ctx = contextWith([system("s"), ...rounds(2)]);
    new RoundWindowProcessor({ maxRounds: 1 }).process(ctx);
    expect(historyOf(ctx)).toEqual([system("s"), ...rounds(2).slice(2)]);
  });

  it("[E-PL6] a warm re-run over the same history array, by a new instance, returns the very array it returned before", () => {
    const history = rounds(8);
    const first = contextWith(history);
    new RoundWindowProcessor({ maxRounds: 2 }).process(first);
    const second = contextWith(history);
    new RoundWindowProcessor({ maxRounds: 2 }).process(second);
    expect(historyOf(second)).toBe(historyOf(first));
    expect(historyOf(first)).not.toBe(history);
    const other = contextWith(history);
    new RoundWindowProcessor({ maxRounds: 3 }).process(other);
    expect(historyOf(other)).not.toBe(historyOf(first));
  });
});
