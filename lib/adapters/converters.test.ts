// AD-8: what the policy keeps goes back as the framework's own object; what it changed is written anew, complete.
import { describe, expect, it } from "vitest";
import { buildRequest, type Message } from "@/lib/context";
import { readSdkMessages, writeSdkMessages, type SdkMessage } from "./ai-sdk/messages";
import { readMastraMessages, writeMastraMessages, type MastraMessage } from "./mastra/messages";
import { readItems, writeItems, type AgentItem } from "./openai-agents/items";
import { LAST_QUESTION, requestPolicy, ROUNDS } from "./test-support/scenario";

const MASKED = "[earlier tool result omitted]";

function built(history: Message[]) {
  return buildRequest({ history, policy: requestPolicy() });
}

describe("adapter converters", () => {
  it("[AD-8] AI SDK: kept messages are the very objects given; a masked result is a new tool message naming its tool", async () => {
    const messages: SdkMessage[] = [
      ...ROUNDS.flatMap((round): SdkMessage[] => [
        { role: "user", content: [{ type: "text", text: round.question }] },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: round.callId, toolName: "search_flights", input: { to: round.city } }] },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: round.callId, toolName: "search_flights", output: { type: "text", value: round.result } }],
        },
        { role: "assistant", content: [{ type: "text", text: round.answer }] },
      ]),
      { role: "user", content: [{ type: "text", text: LAST_QUESTION }] },
    ];
    const { history, origins } = readSdkMessages(messages);
    const written = writeSdkMessages((await built(history)).messages, origins, "prompt");
    // Rounds 3 and 4 and the question: round 3's result masked, everything else the caller's own.
    expect(written).toHaveLength(9);
    expect(written.filter((message) => messages.includes(message))).toHaveLength(8);
    expect(written[2]).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: ROUNDS[2].callId, toolName: "search_flights", output: { type: "text", value: MASKED } }],
    });
  });

  it("[AD-8] OpenAI Agents SDK: kept items are the run's own; the instructions stay instructions; a masked result keeps its call's name", async () => {
    const items: AgentItem[] = [
      ...ROUNDS.flatMap((round): AgentItem[] => [
        { role: "user", content: round.question },
        { type: "function_call", callId: round.callId, name: "search_flights", arguments: JSON.stringify({ to: round.city }), status: "completed" },
        { type: "function_call_result", callId: round.callId, name: "search_flights", status: "completed", output: { type: "text", text: round.result } },
        { role: "assistant", status: "completed", content: [{ type: "output_text", text: round.answer }] },
      ]),
      { role: "user", content: LAST_QUESTION },
    ];
    const { history, origins } = readItems(items, "Be brief.");
    const { instructions, input } = writeItems((await built(history)).messages, origins);
    expect(instructions).toBe("Be brief.");
    expect(input).toHaveLength(9);
    expect(input.filter((item) => items.includes(item))).toHaveLength(8);
    expect(input[2]).toEqual({ type: "function_call_result", callId: ROUNDS[2].callId, name: "search_flights", status: "completed", output: MASKED });
  });

  it("[AD-8] Mastra: a turn kept whole is the stored message; a turn the policy changed is rewritten step by step, in its place", async () => {
    const at = (index: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, index));
    const messages: MastraMessage[] = [
      ...ROUNDS.flatMap((round, index): MastraMessage[] => [
        {
          id: `u${index}`,
          role: "user",
          createdAt: at(2 * index),
          content: { format: 2, parts: [{ type: "text", text: round.question }], content: round.question },
        },
        {
          id: `a${index}`,
          role: "assistant",
          createdAt: at(2 * index + 1),
          content: {
            format: 2,
            parts: [
              {
                type: "tool-invocation",
                toolInvocation: { state: "result", toolCallId: round.callId, toolName: "search_flights", args: { to: round.city }, result: round.result },
              },
              { type: "step-start" },
              { type: "text", text: round.answer },
            ],
          },
        },
      ]),
      { id: "last", role: "user", createdAt: at(9), content: { format: 2, parts: [{ type: "text", text: LAST_QUESTION }] } },
    ];
    const { history, origins } = readMastraMessages(messages);
    expect(history).toHaveLength(ROUNDS.length * 4 + 1);
    const written = writeMastraMessages((await built(history)).messages, origins);
    expect(written.map((message) => message.id)).toEqual(["u2", expect.any(String), expect.any(String), "u3", "a3", "last"]);
    const [, step, answer] = written;
    expect(step.createdAt).toEqual(at(5));
    expect(step.content.parts).toEqual([
      { type: "step-start" },
      {
        type: "tool-invocation",
        toolInvocation: { state: "result", toolCallId: ROUNDS[2].callId, toolName: "search_flights", args: { to: "Madrid" }, result: MASKED },
      },
    ]);
    expect(answer.content.parts).toEqual([{ type: "step-start" }, { type: "text", text: ROUNDS[2].answer }]);
  });
});
