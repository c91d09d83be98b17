import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context";
import { getConversations } from "@/lib/db";
import { messageFingerprint } from "@/lib/context/light";
import { historyAsSent, readRequest, systemPromptChangeOf, type WireFormat } from "@/lib/formats";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { recordedFor, useProxyHarness } from "./support/harness";

// P-S3 and P-SP1–P-SP3 in lib/proxy/README.md: a system prompt that changes every call (a clock)
// keeps one conversation, whose branch reads back as what the upstream saw; independent runs under
// one key, and runs with their own session header, stay apart.

/** One turn of a run: the agent's text or the model's answer. */
interface Turn {
  role: "user" | "assistant";
  text: string;
}

/** Sends one request with the official client and returns the answer's text. */
type Send = (options: { label: string; system: string; turns: Turn[]; session?: string }) => Promise<string>;

interface Variant {
  name: string;
  format: WireFormat;
  send: (harness: { baseUrl: string; anthropicBaseUrl: string }) => Send;
}

const headersOf = (session?: string) => (session ? { "X-Context-Lab-Session": session } : undefined);

const VARIANTS: Variant[] = [true, false].flatMap((stream): Variant[] => [
  {
    name: `openai chat${stream ? ", streamed" : ""}`,
    format: "openai-chat",
    send:
      ({ baseUrl }) =>
      async ({ label, system, turns, session }) => {
        const client = new OpenAI({ baseURL: baseUrl, apiKey: `ctxlab-${label}`, maxRetries: 0, defaultHeaders: headersOf(session) });
        const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
          { role: "system", content: system },
          ...turns.map(({ role, text }) => ({ role, content: text })),
        ];
        if (!stream) return (await client.chat.completions.create({ model: "fake-gpt", messages })).choices[0].message.content ?? "";
        let text = "";
        for await (const chunk of await client.chat.completions.create({ model: "fake-gpt", messages, stream: true }))
          text += chunk.choices[0]?.delta.content ?? "";
        return text;
      },
  },
  {
    name: `openai responses${stream ? ", streamed" : ""}`,
    format: "openai-responses",
    send:
      ({ baseUrl }) =>
      async ({ label, system, turns, session }) => {
        const client = new OpenAI({ baseURL: baseUrl, apiKey: `ctxlab-${label}`, maxRetries: 0, defaultHeaders: headersOf(session) });
        const input: OpenAI.Responses.ResponseInputItem[] = turns.map(({ role, text }) => ({ role, content: text }));
        if (!stream) return (await client.responses.create({ model: "fake-gpt", instructions: system, input })).output_text;
        let text = "";
        for await (const event of await client.responses.create({ model: "fake-gpt", instructions: system, input, stream: true })) {
          if (event.type === "response.output_text.delta") text += event.delta;
        }
        return text;
      },
  },
  {
    name: `anthropic${stream ? ", streamed" : ""}`,
    format: "anthropic",
    send:
      ({ anthropicBaseUrl }) =>
      async ({ label, system, turns, session }) => {
        const client = new Anthropic({ baseURL: anthropicBaseUrl, apiKey: `ctxlab-${label}`, maxRetries: 0, defaultHeaders: headersOf(session) });
        const request = { model: "fake-claude", max_tokens: 64, system, messages: turns.map(({ role, text }) => ({ role, content: text })) };
        const answer = stream ? await client.messages.stream(request).finalMessage() : await client.messages.create(request);
        return answer.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      },
  },
]);

const clock = (minute: number) => `You plan trips for the user.\nCurrent time: 20:1${minute}`;
const fingerprints = (messages: readonly Message[]) => messages.map(messageFingerprint);

describe.each(TEST_PROVIDERS)("proxy: sessions that survive a changing system prompt (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  describe.each(VARIANTS)("$name", ({ format, send: sender }) => {
    it("[P-S3] [P-SP1] [P-SP2] [P-SP3] a clock in the system prompt keeps one conversation whose branch reads back as what the upstream saw", async () => {
      const send = sender(harness);
      const turns: Turn[] = [];
      for (let call = 0; call < 4; call += 1) {
        turns.push({ role: "user", text: `question ${call}` });
        turns.push({ role: "assistant", text: await send({ label: "clock", system: clock(call), turns }) });
      }
      await harness.recorded();

      expect((await getConversations(test.db)).map((conversation) => conversation.recordKey)).toEqual(["clock"]);
      const { branches, records, exchanges } = await recordedFor(test.db, "clock");
      expect(branches).toHaveLength(1);
      const stored = records.get(branches[0].id)!;
      expect(stored).toHaveLength(9);
      expect(exchanges).toHaveLength(4);

      // Each call's request, as the upstream read it, is the stored history up to it with that call's prompt (P-SP3).
      const seen = harness.fake.requests.filter((request) => request.method === "POST").map((request) => readRequest(format, request.body).messages);
      expect(seen).toHaveLength(4);
      seen.forEach((messages, call) => {
        expect(messages[0].content).toBe(clock(call));
        expect(fingerprints(historyAsSent(stored, messages.length))).toEqual(fingerprints(messages));
      });
      const latest = historyAsSent(stored);
      expect(fingerprints(latest)).toEqual(fingerprints([...seen[3], { role: "assistant", content: turns[7].text }]));

      // The prompt is stored once per change, on the first turn each call added; the history is not stored again (P-SP2, PX-D6.7).
      expect(stored.map((record) => systemPromptChangeOf(record.metadata)?.messages[0].content ?? null)).toEqual([
        null,
        null,
        null,
        clock(1),
        null,
        clock(2),
        null,
        clock(3),
        null,
      ]);
      const rows = await test.db.exchange.findMany({ orderBy: { createdAt: "asc" }, select: { requestBaseId: true, request: true } });
      expect(rows.map((row) => row.requestBaseId !== null)).toEqual([false, true, true, true]);
      expect(rows[3].request).not.toContain("question 0");
    });

    it("[P-S3] two runs that open with different questions under one key stay apart; a third that opens like the first continues it", async () => {
      const send = sender(harness);
      const first: Turn[] = [{ role: "user", text: "plan Lyon" }];
      first.push({ role: "assistant", text: await send({ label: "runs", system: clock(0), turns: first }) });
      await send({ label: "runs", system: clock(1), turns: [{ role: "user", text: "plan Porto" }] });
      await send({ label: "runs", system: clock(2), turns: [...first, { role: "user", text: "and the evening?" }] });
      await harness.recorded();

      const keys = (await getConversations(test.db)).map((conversation) => conversation.recordKey).sort();
      expect(keys).toEqual(["runs", expect.stringMatching(/^runs#[0-9a-f]{8}$/)]);
      const lyon = await recordedFor(test.db, "runs");
      expect(lyon.branches).toHaveLength(1);
      expect(lyon.histories.get(lyon.branches[0].id)!.map((message) => message.content)).toEqual([
        clock(0),
        "plan Lyon",
        "echo: plan Lyon",
        "and the evening?",
        "echo: and the evening?",
      ]);
      const porto = await recordedFor(test.db, keys[1]!);
      expect(porto.histories.get(porto.branches[0].id)!.map((message) => message.content)).toEqual([clock(1), "plan Porto", "echo: plan Porto"]);
    });

    it("[P-S1] the session header still gives each run a conversation of its own, whatever its history", async () => {
      const send = sender(harness);
      const turns: Turn[] = [{ role: "user", text: "plan Lyon" }];
      await send({ label: "nightly", system: clock(0), turns, session: "run-1" });
      await send({ label: "nightly", system: clock(1), turns, session: "run-2" });
      await harness.recorded();
      expect((await getConversations(test.db)).map((conversation) => conversation.recordKey).sort()).toEqual(["nightly/run-1", "nightly/run-2"]);
      const second = await recordedFor(test.db, "nightly/run-2");
      expect(second.histories.get(second.branches[0].id)!.map((message) => message.content)).toEqual([clock(1), "plan Lyon", "echo: plan Lyon"]);
    });
  });
});
