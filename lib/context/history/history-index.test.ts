import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { isFinalAnswer, splitRounds, type Message } from "../messages";
import { conversationArbitrary } from "../test-support/arbitraries";
import { answer, system, user } from "../test-support/conversation";
import { sharedCounter, TiktokenCounter } from "../tokens/counter";
import { applyEdits, keepRanges } from "./edit";
import { HistoryIndex } from "./history-index";
import { indexOf } from "./index-of";

const counter = sharedCounter("cl100k_base");

/** Everything an index answers, read the slow way from the messages. */
function expected(history: readonly Message[]) {
  const rounds = splitRounds(history);
  const systems = history.flatMap((message, position) => (message.role === "system" ? [position] : []));
  const counts = history.map((message) => counter.countMessage(message));
  return {
    rounds: rounds.length,
    starts: rounds.map((round) => round.start),
    finals: rounds.map((round) => (round.complete ? round.indices.at(-1)! : -1)),
    complete: rounds.at(-1)?.complete ?? true,
    systems,
    tokens: counter.countMessages(history),
    counts,
  };
}

/** The same questions put to an index. */
function answered(index: HistoryIndex) {
  return {
    rounds: index.rounds,
    starts: Array.from({ length: index.rounds }, (_, round) => index.roundStart(round)),
    finals: Array.from({ length: index.rounds }, (_, round) => index.finalOf(round)),
    complete: index.lastRoundComplete,
    systems: index.systemPositionsBefore(index.length),
    tokens: index.tokens(counter),
    counts: Array.from({ length: index.length }, (_, position) => index.tokensAt(counter, position)),
  };
}

function expectPositionQueries(index: HistoryIndex, history: readonly Message[]): void {
  const rounds = splitRounds(history);
  for (let position = 0; position <= history.length; position += 1) {
    expect(index.roundsBefore(position)).toBe(rounds.filter((round) => round.start < position).length);
    expect(index.systemsBefore(position)).toBe(history.slice(0, position).filter((message) => message.role === "system").length);
    const lastBefore = history.slice(0, position).findLastIndex((message) => message.role !== "system");
    const boundary = lastBefore === -1 || isFinalAnswer(history[lastBefore]) ? position : rounds.findLast((round) => round.start <= lastBefore)!.start;
    expect(index.boundaryAtOrBefore(position)).toBe(boundary);
  }
}

describe("HistoryIndex", () => {
  it("[E-I3][E-R1] built from nothing, it answers what splitRounds and countMessages say", () => {
    fc.assert(
      fc.property(conversationArbitrary, (history) => {
        const index = HistoryIndex.fresh(history);
        expect(answered(index)).toEqual(expected(history));
        expectPositionQueries(index, history);
      }),
      { numRuns: 150 },
    );
  });

  it("[E-I3] a history appended to an indexed one (a new array, the same messages first) is indexed by extension and answers the same", () => {
    fc.assert(
      fc.property(conversationArbitrary, fc.nat(), fc.nat(), (conversation, first, second) => {
        const a = (first % conversation.length) + 1;
        const b = a + (second % (conversation.length - a + 1));
        const shorter = conversation.slice(0, a);
        const short = indexOf(shorter);
        const middle = indexOf(conversation.slice(0, b));
        const whole = indexOf([...conversation]);
        expect(answered(whole)).toEqual(expected(conversation));
        expect(answered(middle)).toEqual(expected(conversation.slice(0, b)));
        // The shorter index stays right after others extended the arrays it shares.
        expect(answered(short)).toEqual(expected(shorter));
        // A branch off the shorter history (another message appended) is right too.
        const branch = [...shorter, user("a different turn")];
        expect(answered(indexOf(branch))).toEqual(expected(branch));
        expect(answered(short)).toEqual(expected(shorter));
      }),
      { numRuns: 150 },
    );
  });

  it("[E-I3] a history made by edits (messages replaced, dropped, written) or by keeping ranges answers as if indexed from nothing", () => {
    fc.assert(
      fc.property(
        conversationArbitrary,
        fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.nat(2)), { maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        (history, plan, keep) => {
          const edits = plan
            .map(([at, size, written]) => ({
              from: at % history.length,
              to: Math.min(history.length, (at % history.length) + size),
              messages: Array.from({ length: written }, (_, order) => (order % 2 ? answer(`written ${order}`) : system(`note ${order}`))),
            }))
            .sort((x, y) => x.from - y.from)
            .filter((edit, order, all) => order === 0 || edit.from >= all[order - 1].to);
          const { history: edited } = applyEdits(history, edits);
          expect(answered(indexOf(edited))).toEqual(expected(edited));
          expectPositionQueries(indexOf(edited), edited);
          const ranges = [...new Set(keep.map((position) => position % history.length))]
            .sort((x, y) => x - y)
            .map((position) => [position, position + 1] as const);
          const kept = keepRanges(history, ranges);
          expect(answered(indexOf(kept))).toEqual(expected(kept));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("[E-I3][E-T6] extending an index by one appended message counts that message only, and keeps it out of the counter's cache", () => {
    const own = new TiktokenCounter({ encoding: "cl100k_base" });
    const history = [system("policy"), user("q1"), answer("a1")];
    indexOf(history).tokens(own);
    const encode = vi.spyOn(own, "countText");
    const appended = user("one more question");
    expect(indexOf([...history, appended]).tokens(own)).toBe(own.countMessages([...history, appended]) - 0);
    const texts = encode.mock.calls.map(([text]) => text);
    expect(texts.filter((text) => text === "policy" || text === "q1" || text === "a1")).toEqual([]);
    expect(texts.filter((text) => text === "one more question")).toHaveLength(2);
  });

  it("[E-I3] an appended history finds the one it extends even after a processor's output ending with the same message was indexed", () => {
    const own = new TiktokenCounter({ encoding: "cl100k_base" });
    const history = [system("policy"), user("q1"), answer("a1"), user("q2"), answer("a2")];
    indexOf(history).tokens(own);
    // A round window's output: the last round, ending with the same message, indexed since.
    indexOf(history.slice(3)).tokens(own);
    const appended = [...history, user("one more question")];
    const expected = own.countMessages(appended);
    const counted = vi.spyOn(own, "countMessage");
    expect(indexOf(appended).tokens(own)).toBe(expected);
    // Extended, not rebuilt: no message of the shared part is counted again.
    expect(counted).not.toHaveBeenCalled();
  });
  it("[E-I3] several histories appended to one indexed history (forks) each count only their own new message", () => {
    const own = new TiktokenCounter({ encoding: "cl100k_base" });
    const history = [system("policy"), user("q1"), answer("a1"), user("q2"), answer("a2")];
    indexOf(history).tokens(own);
    const counted = vi.spyOn(own, "countMessage");
    const encode = vi.spyOn(own, "countText");
    for (const turn of ["first fork", "second fork", "third fork"]) {
      const fork = [...history, user(turn)];
      expect(indexOf(fork).tokens(own)).toBe(new TiktokenCounter({ encoding: "cl100k_base" }).countMessages(fork));
      expect(answered(indexOf(fork))).toEqual(expected(fork));
    }
    // No shared message is read again: only each fork's new turn is encoded.
    expect(counted).not.toHaveBeenCalled();
    expect(encode.mock.calls.map(([text]) => text).filter((text) => !text?.endsWith("fork") && text !== "user")).toEqual([]);
  });

  it("[E-I3] a processor's output as long as its input and ending with the same message does not hide the input from an appended history", () => {
    const own = new TiktokenCounter({ encoding: "cl100k_base" });
    const history = [system("policy"), user("q1"), answer("a1"), user("q2"), answer("a2")];
    indexOf(history).tokens(own);
    // An offloader's output: one message replaced, same length, same last message; indexed after its input, several times over.
    for (let run = 0; run < 6; run += 1) applyEdits(history, [{ from: 1, to: 2, messages: [user(`offloaded ${run}`)] }]).history;
    const appended = [...history, user("one more question")];
    const counted = vi.spyOn(own, "countMessage");
    expect(indexOf(appended).tokens(own)).toBe(new TiktokenCounter({ encoding: "cl100k_base" }).countMessages(appended));
    expect(counted).not.toHaveBeenCalled();
  });
});
