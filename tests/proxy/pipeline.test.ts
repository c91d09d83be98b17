import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createConversation } from "@/lib/db";
import { writeChatMessages } from "@/lib/formats";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { recordedFor, useProxyHarness } from "./support/harness";

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** A system prompt, four finished rounds and a last question whose content parts include an image. */
function longHistory(): ChatMessage[] {
  const history: ChatMessage[] = [{ role: "system", content: "You answer questions." }];
  for (let round = 0; round < 4; round += 1) history.push({ role: "user", content: `question ${round}` }, { role: "assistant", content: `answer ${round}` });
  history.push({
    role: "user",
    content: [
      { type: "text", text: "what is in this picture?" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
    ],
  });
  return history;
}

describe.each(TEST_PROVIDERS)("proxy: the context pipeline on outgoing requests (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  it("sends the processed history when the conversation applies the pipeline, recording what was asked and what was sent", async () => {
    await createConversation(test.db, { title: "windowed", source: "proxy", recordKey: "windowed", settings: { applyPipeline: true, historyRounds: 2 } });
    const history = longHistory();
    const stream = await harness.agent("windowed").chat.completions.create({ model: "fake-gpt", messages: history, stream: true });
    for await (const chunk of stream) void chunk;
    await harness.recorded();

    // The round window kept the system prompt and the last two rounds; the untouched last message went in the agent's own form.
    const sentMessages = [history[0], history[7], history[8], history[9]];
    expect(harness.fake.requests[0].body?.messages).toEqual(sentMessages);
    const { branches, histories, exchanges, records } = await recordedFor(test.db, "windowed");
    const [exchange] = exchanges;
    expect(exchange.request).toEqual({ model: "fake-gpt", messages: history, stream: true });
    // The builder's body (PX-P1): the agent's own fields kept, and no reply limit it did not send (PX-L1).
    expect(exchange.sent).toEqual({ model: "fake-gpt", messages: sentMessages, stream: true });
    expect(exchange).toMatchObject({ status: 200, streamed: true, error: null });

    // The conversation keeps every raw turn the agent sent, then the reply.
    const recorded = histories.get(branches[0].id)!;
    expect(recorded).toHaveLength(11);
    // The canonical message keeps the image as a part (PX-P5): written back, it is the agent's message.
    expect(recorded[9]).toMatchObject({ role: "user", parts: [{ type: "text" }, { type: "image" }] });
    expect(writeChatMessages([recorded[9]]).value).toEqual([history[9]]);
    expect(recorded[10]).toEqual({
      role: "assistant",
      content: 'echo: [{"type":"text","text":"what is in this picture?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}}]',
    });
    const steps = records.get(branches[0].id)![10].metadata?.pipeline as { processor: string; messagesBefore: number; messagesAfter: number }[];
    expect(steps.some((step) => step.messagesBefore === 10 && step.messagesAfter === 4)).toBe(true);
  });

  it("passes requests through untouched when the conversation does not apply the pipeline", async () => {
    await createConversation(test.db, { title: "raw", source: "proxy", recordKey: "raw", settings: { historyRounds: 2 } });
    await harness.agent("raw").chat.completions.create({ model: "fake-gpt", messages: longHistory() });
    await harness.recorded();
    expect(harness.fake.requests[0].body?.messages).toEqual(longHistory());
    expect((await recordedFor(test.db, "raw")).exchanges[0].sent).toBeNull();
  });

  it("refuses with context_budget_exceeded, without calling the upstream, when even the trimmed history is over budget", async () => {
    await createConversation(test.db, { title: "tight", source: "proxy", recordKey: "tight", settings: { applyPipeline: true, tokenBudget: 5 } });
    let error: unknown;
    try {
      await harness.agent("tight").chat.completions.create({ model: "fake-gpt", messages: longHistory() });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, type: "context_budget_exceeded", code: "context_budget_exceeded", param: "messages" });
    expect((error as Error).message).toMatch(/over the limit of 5/);
    expect(harness.fake.requests).toHaveLength(0);
    await harness.recorded();

    const { branches, histories, exchanges } = await recordedFor(test.db, "tight");
    expect(histories.get(branches[0].id)).toHaveLength(10);
    expect(exchanges[0]).toMatchObject({
      status: 400,
      sent: null,
      response: null,
      error: { source: "pipeline", type: "context_budget_exceeded", budget: 5, tokens: expect.any(Number) },
    });
  });
});
