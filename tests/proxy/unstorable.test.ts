import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { listCallsByConversationId } from "@/lib/calls";
import { createProxyCall, endProxyCallById, findConversationByRecordKey, getUnplacedProxyCalls } from "@/lib/db";
import { getProxyRecorder } from "@/lib/proxy";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { recordedFor, useProxyHarness } from "./support/harness";

// [IN-4][IN-5] lib/proxy/README.md: the proxy never answers a call it cannot record.

const CUT = "cut \ud83d";
const NUL = "before\u0000after";

/** Runs `call`, expecting it to fail, and returns what it threw. */
async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("the call succeeded");
}

describe.each(TEST_PROVIDERS)("proxy: text the database cannot store (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);
  const anthropic = (label: string) => new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: `ctxlab-${label}`, maxRetries: 0 });

  /** Nothing was forwarded, journaled or recorded. */
  async function expectNothingKept(label: string) {
    await harness.recorded();
    expect(harness.fake.requests).toEqual([]);
    expect(await test.db.proxyCall.count()).toBe(0);
    expect(await findConversationByRecordKey(test.db, label)).toBeNull();
  }

  it("[IN-4] refuses a lone surrogate in a chat completion with OpenAI's 400, naming the field, and forwards nothing", async () => {
    const error = await failure(() => harness.agent("cut-chat").chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: CUT }] }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const apiError = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(apiError.type).toBe("invalid_request_error");
    expect(apiError.param).toBe("messages[0].content");
    expect(apiError.message).toContain("lone UTF-16 surrogate");
    await expectNothingKept("cut-chat");
  });

  it("[IN-4] refuses a lone surrogate in a Responses request with OpenAI's 400 and forwards nothing", async () => {
    const error = await failure(() =>
      harness.agent("cut-responses").responses.create({ model: "fake-gpt", input: [{ role: "user", content: "fine" }], instructions: CUT }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("instructions");
    await expectNothingKept("cut-responses");
  });

  it("[IN-4] refuses a lone surrogate in an Anthropic Messages request in Anthropic's error shape and forwards nothing", async () => {
    const error = await failure(() =>
      anthropic("cut-claude").messages.create({
        model: "fake-claude",
        max_tokens: 64,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "half an emoji: " },
              { type: "text", text: CUT },
            ],
          },
        ],
      }),
    );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const body = (error as InstanceType<typeof Anthropic.BadRequestError>).error as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe("error");
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.message).toMatch(/^messages\[0\]\.content\[1\]\.text holds a lone UTF-16 surrogate/);
    await expectNothingKept("cut-claude");
  });

  it("[IN-4] refuses U+0000 on both databases (PostgreSQL cannot store it), in chat and in Anthropic's shape, forwarding nothing", async () => {
    const chat = await failure(() => harness.agent("nul-chat").chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: NUL }] }));
    expect(chat).toBeInstanceOf(OpenAI.BadRequestError);
    expect((chat as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("messages[0].content");
    expect((chat as Error).message).toContain("U+0000");
    const claude = await failure(() =>
      anthropic("nul-claude").messages.create({ model: "fake-claude", max_tokens: 64, system: NUL, messages: [{ role: "user", content: "hi" }] }),
    );
    expect(claude).toBeInstanceOf(Anthropic.BadRequestError);
    expect((claude as Error).message).toContain("system holds the character U+0000");
    await expectNothingKept("nul-chat");
    await expectNothingKept("nul-claude");
  });

  it("[IN-5] an answer whose reply cannot be stored is recorded as a failed call with the reason, its request's turns kept", async () => {
    harness.fake.enqueue({ content: CUT });
    const answer = await harness.agent("cut-reply").chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "say it" }] });
    expect(answer.choices[0].message.content).toBe(CUT);
    await harness.recorded();

    const recorded = await recordedFor(test.db, "cut-reply");
    expect(recorded.histories.get(recorded.branches[0].id)).toEqual([{ role: "user", content: "say it" }]);
    expect(recorded.exchanges).toHaveLength(1);
    expect(recorded.exchanges[0].status).toBe(200);
    expect(recorded.exchanges[0].response).toMatchObject({ choices: [{ message: { content: CUT } }] });
    const { calls } = await listCallsByConversationId(test.db, recorded.conversation.id);
    expect(calls.map((call) => [call.outcome, call.error?.type])).toEqual([["failed", "recording_failed"]]);
    expect(calls[0].error?.message).toMatch(/^the reply was not recorded: messages\[0\]\.content holds a lone UTF-16 surrogate/);
    expect(await test.db.proxyCall.count()).toBe(0);
  });

  it("[IN-5] a journaled call whose turns cannot be stored is placed once as a failed call with the reason, never again", async () => {
    // What an earlier version journaled and then failed to place at every start.
    const messages = [{ role: "user", content: CUT }];
    const journaled = await createProxyCall(test.db, {
      key: "stuck",
      request: { model: "fake-gpt", messages },
      details: { messages, tools: null, sentMessages: null, pipeline: null },
    });
    const reply = { role: "assistant", content: "echo" };
    await endProxyCallById(test.db, journaled.id, {
      status: 200,
      response: { choices: [{ index: 0, message: reply, finish_reason: "stop" }] },
      error: null,
      durationMs: 5,
      outcome: { completion: { reply, model: "fake-gpt", finishReason: "stop", usage: null }, reloads: null },
    });
    await test.db.proxyCall.updateMany({ data: { createdAt: new Date(Date.now() - 60_000) } });

    expect(await getProxyRecorder().recover(test.db)).toBe(1);
    expect(await getUnplacedProxyCalls(test.db)).toEqual([]);
    expect(await getProxyRecorder().recover(test.db)).toBe(0);

    const recorded = await recordedFor(test.db, "stuck");
    expect(recorded.histories.get(recorded.branches[0].id)).toEqual([]);
    const { calls } = await listCallsByConversationId(test.db, recorded.conversation.id);
    expect(calls).toHaveLength(1);
    expect(calls[0].error).toMatchObject({ source: "recorder", type: "recording_failed" });
    expect(calls[0].error?.message).toMatch(/^the request's messages were not recorded: messages\[0\]\.content holds a lone UTF-16 surrogate/);
  });
});
