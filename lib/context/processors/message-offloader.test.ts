import { describe, expect, it } from "vitest";
import { makeConfig } from "../config";
import { ContextError } from "../errors";
import { contentHandle, type HandleFactory } from "../handles";
import { splitRounds, type Message } from "../messages";
import { STATE_KEYS } from "../state";
import { answer, calls, chainSummary, contextWith, historyOf, longText, result, system, toolCall, user } from "../test-support/conversation";
import { reloadOffloaded } from "../tools";
import { MessageOffloader } from "./message-offloader";

const MARKER = /^\[\[OFFLOADED: handle=(off_[0-9a-f]{12})\]\]$/;

function handleOf(content: string | null): string {
  const match = MARKER.exec(content ?? "");
  if (!match) throw new Error(`not an offload marker: ${content}`);
  return match[1];
}

describe("MessageOffloader", () => {
  it("[E-O1] leaves messages within the limit untouched (the same history, no state written)", () => {
    const history = [system("s"), user("short"), answer("also short")];
    const ctx = contextWith(history);
    const result = new MessageOffloader({ maxMessageSize: 100 }).process(ctx);
    expect(historyOf(ctx)).toBe(history);
    expect(ctx.state.has(STATE_KEYS.offloadedMessages)).toBe(false);
    expect(result.effects ?? []).toEqual([]);
  });

  it("[E-O1] replaces an oversized message with a marker and stores the original under its handle", () => {
    const big = longText(500);
    const ctx = contextWith([user("q"), answer(big)]);
    new MessageOffloader({ maxMessageSize: 100 }).process(ctx);
    const [first, second] = historyOf(ctx);
    expect(first.content).toBe("q");
    expect(second.role).toBe("assistant");
    const handle = handleOf(second.content);
    expect(ctx.state.get(STATE_KEYS.offloadedMessages)).toEqual({ [handle]: big });
  });

  it("[E-O1] offloads user, assistant and tool messages and never system messages", () => {
    const big = longText(300);
    const history = [system(big), user(`${big}u`), calls(toolCall("a")), result("a", `${big}t`, "lookup"), answer(`${big}a`)];
    const ctx = contextWith(history);
    new MessageOffloader({ maxMessageSize: 100 }).process(ctx);
    const after = historyOf(ctx);
    expect(after[0]).toBe(history[0]);
    expect(after[2]).toBe(history[2]);
    for (const index of [1, 3, 4]) expect(after[index].content).toMatch(MARKER);
    expect(Object.keys(ctx.state.get(STATE_KEYS.offloadedMessages) ?? {})).toHaveLength(3);
  });

  it("[E-O1] changes only the content: role, tool_call_id, name and tool_calls stay", () => {
    const big = longText(300);
    const withCalls = { role: "assistant" as const, content: big, tool_calls: [toolCall("call_0", "search")] };
    const toolResult = result("call_0", `${big}!`, "search");
    const ctx = contextWith([user("q"), withCalls, toolResult]);
    new MessageOffloader({ maxMessageSize: 100 }).process(ctx);
    const [, offloadedCall, offloadedResult] = historyOf(ctx);
    expect(offloadedCall).toEqual({ ...withCalls, content: offloadedCall.content });
    expect(offloadedCall.tool_calls).toBe(withCalls.tool_calls);
    expect(offloadedResult).toEqual({ role: "tool", tool_call_id: "call_0", name: "search", content: offloadedResult.content });
    expect(withCalls.content).toBe(big);
  });

  it("[E-O1] measures characters as code points, not UTF-16 units", () => {
    const tenEmoji = "😀".repeat(10);
    const ctx = contextWith([user(tenEmoji), user("😀".repeat(11))]);
    new MessageOffloader({ maxMessageSize: 10 }).process(ctx);
    expect(historyOf(ctx)[0].content).toBe(tenEmoji);
    expect(historyOf(ctx)[1].content).toMatch(MARKER);
  });

  it("[E-O1] a message of exactly the limit stays, one character more goes", () => {
    const ctx = contextWith([user("x".repeat(50)), user("y".repeat(51))]);
    new MessageOffloader({ maxMessageSize: 50 }).process(ctx);
    expect(historyOf(ctx).map((message) => MARKER.test(message.content ?? ""))).toEqual([false, true]);
  });

  it("[E-O1] defaults to 10 000 characters", () => {
    const ctx = contextWith([user("x".repeat(10_000)), user("y".repeat(10_001))]);
    const offloader = new MessageOffloader();
    expect(offloader.maxMessageSize).toBe(10_000);
    offloader.process(ctx);
    expect(historyOf(ctx).map((message) => MARKER.test(message.content ?? ""))).toEqual([false, true]);
  });

  it("[E-O1] reports one 'offloaded' effect per message, with its handle", () => {
    const ctx = contextWith([user("q"), answer(longText(200)), user("q2"), answer(longText(300))]);
    const { effects } = new MessageOffloader({ maxMessageSize: 100 }).process(ctx);
    expect(effects?.map((effect) => [effect.kind, effect.before, effect.after])).toEqual([
      ["offloaded", [[1, 2]], [[1, 2]]],
      ["offloaded", [[3, 4]], [[3, 4]]],
    ]);
    expect(effects?.[0].handle).toBe(handleOf(historyOf(ctx)[1].content));
  });

  it("[E-O1] keeps what earlier runs offloaded", () => {
    const ctx = contextWith([user(longText(200, "first"))]);
    const offloader = new MessageOffloader({ maxMessageSize: 100 });
    offloader.process(ctx);
    const firstHandle = handleOf(historyOf(ctx)[0].content);
    ctx.state.set(STATE_KEYS.history, [...historyOf(ctx), user(longText(200, "second"))]);
    offloader.process(ctx);
    const stored = ctx.state.get(STATE_KEYS.offloadedMessages) ?? {};
    expect(Object.keys(stored)).toHaveLength(2);
    expect(stored[firstHandle]).toBe(longText(200, "first"));
  });

  it("[E-O5] with keepIncompleteRound, the unfinished round stays readable however large; without it O1 applies", () => {
    const big = longText(500);
    const history = [user("q1"), answer(big), user(big), calls(toolCall("c1")), result("c1", big)];
    const kept = contextWith(history);
    new MessageOffloader({ maxMessageSize: 100, keepIncompleteRound: true }).process(kept);
    const after = historyOf(kept);
    expect(after[1].content).toMatch(MARKER);
    expect(after.slice(2)).toEqual(history.slice(2));
    const literal = contextWith(history);
    new MessageOffloader({ maxMessageSize: 100 }).process(literal);
    expect(historyOf(literal)[2].content).toMatch(MARKER);
    expect(historyOf(literal)[4].content).toMatch(MARKER);
  });

  it("[E-O2] reloadOffloaded returns the exact original", async () => {
    const original = `${longText(400)}\r\n\t 😀 <|endoftext|> trailing  `;
    const ctx = contextWith([user(original)]);
    new MessageOffloader({ maxMessageSize: 100 }).process(ctx);
    expect(await reloadOffloaded(ctx, handleOf(historyOf(ctx)[0].content))).toBe(original);
    await expect(reloadOffloaded(ctx, "off_000000000000")).rejects.toThrow(ContextError);
  });

  it("[E-O4] re-running on the same history gives the same handles; different contents never share one", () => {
    const history = [user(longText(300, "alpha")), user(longText(300, "beta")), user(longText(300, "alpha"))];
    const first = contextWith(history);
    const second = contextWith(structuredClone(history));
    new MessageOffloader({ maxMessageSize: 100 }).process(first);
    new MessageOffloader({ maxMessageSize: 100 }).process(second);
    const handles = historyOf(first).map((message) => handleOf(message.content));
    expect(historyOf(second).map((message) => handleOf(message.content))).toEqual(handles);
    expect(handles[0]).not.toBe(handles[1]);
    expect(handles[0]).toBe(handles[2]);
  });

  it("[E-O4] a handle already holding other content is never reused", () => {
    const collide: HandleFactory = (content, taken) => (taken("off_aaaaaaaaaaaa") ? contentHandle(content, taken) : "off_aaaaaaaaaaaa");
    const ctx = contextWith([user(longText(200, "one")), user(longText(200, "two"))]);
    new MessageOffloader({ maxMessageSize: 100, createHandle: collide }).process(ctx);
    const [one, two] = historyOf(ctx).map((message) => handleOf(message.content));
    expect(one).toBe("off_aaaaaaaaaaaa");
    expect(two).not.toBe(one);
    const stored = ctx.state.get(STATE_KEYS.offloadedMessages) ?? {};
    expect([stored[one], stored[two]]).toEqual([longText(200, "one"), longText(200, "two")]);
  });

  it("[E-O1] works inside a forked context without touching the parent", () => {
    const parent = contextWith([user(longText(300))], makeConfig());
    const child = parent.fork("child");
    new MessageOffloader({ maxMessageSize: 100 }).process(child);
    expect(historyOf(child)[0].content).toMatch(MARKER);
    expect(historyOf(parent)[0].content).toBe(longText(300));
    expect(parent.state.has(STATE_KEYS.offloadedMessages)).toBe(false);
  });

  it("[E-O1][E-R1][E-M2] an offloaded chain summary keeps its engine mark, so round counts do not change", () => {
    const summary = chainSummary(longText(300));
    const ctx = contextWith([user("q1"), summary, answer("a1"), user("q2")]);
    new MessageOffloader({ maxMessageSize: 200 }).process(ctx);
    const offloaded = historyOf(ctx)[1];
    expect(offloaded.content).toMatch(MARKER);
    expect(offloaded.engine).toEqual({ kind: "chain-summary" });
    expect(splitRounds(historyOf(ctx))).toHaveLength(2);
  });

  it("[E-O1][E-M2] a model's oversized answer that starts like a chain summary is offloaded as the exact marker and still ends its round", () => {
    const lookalike = answer(`[Tool chain summary] ${longText(300)}`);
    const ctx = contextWith([user("q1"), lookalike, user("q2"), answer("a2")]);
    new MessageOffloader({ maxMessageSize: 200 }).process(ctx);
    expect(historyOf(ctx)[1]).toEqual({ role: "assistant", content: expect.stringMatching(MARKER) });
    expect(splitRounds(historyOf(ctx))).toHaveLength(2);
  });

  it("[E-O1] a message with parts keeps its other parts and gets one marker part where its text stood", () => {
    const image = { type: "image" as const, source: { type: "url" as const, url: "https://example.com/a.png" } };
    const message: Message = {
      role: "user",
      content: `${longText(150)}\n${longText(150)}`,
      parts: [{ type: "text", text: longText(150) }, image, { type: "text", text: longText(150) }],
    };
    const ctx = contextWith([message]);
    new MessageOffloader({ maxMessageSize: 200 }).process(ctx);
    const offloaded = historyOf(ctx)[0];
    expect(offloaded.parts).toEqual([{ type: "text", text: offloaded.content }, image]);
    expect(offloaded.content).toMatch(MARKER);
  });

  it("[E-CFG3] with minMessages, offloads only once the history holds more non-system messages than that", () => {
    const history = [system("policy"), user("q1"), answer(longText(500)), user("q2")];
    const under = contextWith(history);
    new MessageOffloader({ maxMessageSize: 100, minMessages: 3 }).process(under);
    expect(historyOf(under)[2].content).toBe(longText(500));
    const over = contextWith(history);
    new MessageOffloader({ maxMessageSize: 100, minMessages: 2 }).process(over);
    expect(historyOf(over)[2].content).toMatch(MARKER);
  });
});
