import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extractiveSummarizer, type Message } from "@/lib/context";
import { startFakeOpenAI, type FakeOpenAI } from "@/tests/support/fake-openai";
import { assistant, toolCall, toolResult, user } from "@/tests/support/memory-fixtures";
import { createRecorderSummarizer, summaryRequest, transcriptOf } from "./summarizer";

const chain: Message[] = [
  user("Where is 8JX2WO going?"),
  toolCall("call_1", "get_reservation_details", { reservation_id: "8JX2WO" }),
  toolResult("call_1", '{"destination":"SEA"}'),
  assistant("It goes to Seattle."),
];

describe("summaryRequest", () => {
  it("asks the model with instructions by purpose, the previous summary to extend, and the messages as a transcript", () => {
    const request = summaryRequest("gpt-4o-mini", chain, { purpose: "conversation", previousSummary: "The user is Mia Li." });
    const [system, prompt] = request.messages as Message[];
    expect(request).toMatchObject({ model: "gpt-4o-mini", stream: false });
    expect(system.content).toMatch(/^You write the memory/);
    expect(prompt.content).toContain("Earlier summary:\nThe user is Mia Li.");
    expect(prompt.content).toContain('assistant: \n  calls get_reservation_details({"reservation_id":"8JX2WO"})');
    expect(prompt.content).toContain('tool result (call_1): {"destination":"SEA"}');
    const tools = summaryRequest("m", chain, { purpose: "tool-chain" });
    expect((tools.messages as Message[])[0].content).toMatch(/^You summarize a chain of tool calls/);
    expect((tools.messages as Message[])[1].content).not.toContain("Earlier summary");
  });

  it("renders a transcript line per message", () => {
    expect(transcriptOf([user("hi"), assistant("hello")])).toBe("user: hi\nassistant: hello");
  });
});

describe("createRecorderSummarizer", () => {
  let fake: FakeOpenAI;
  beforeEach(async () => {
    fake = await startFakeOpenAI({ apiKey: "sk-summary-key-1234" });
  });
  afterEach(() => fake.close());
  const upstream = () => ({ baseUrl: fake.baseUrl, apiKey: "sk-summary-key-1234", timeoutMs: 2_000 });

  it("is the engine's extractive summarizer without an upstream", async () => {
    const { summarizer, report } = createRecorderSummarizer(null, "gpt-4o");
    expect(await summarizer(chain, { purpose: "conversation" })).toBe(await extractiveSummarizer(chain, { purpose: "conversation" }));
    expect(report).toEqual({ kind: "extractive", calls: 1, fallbacks: [] });
  });

  it("asks the upstream's model when one is configured", async () => {
    fake.enqueue({ content: "  Mia asked where 8JX2WO goes: Seattle.  " });
    const { summarizer, report } = createRecorderSummarizer(upstream(), "gpt-4o");
    expect(await summarizer(chain, { purpose: "conversation" })).toBe("Mia asked where 8JX2WO goes: Seattle.");
    expect(report).toEqual({ kind: "upstream", calls: 1, fallbacks: [] });
    expect(fake.requests[0].body).toMatchObject({ model: "gpt-4o", stream: false });
  });

  it("falls back to the extractive summary on an error, a timeout or an empty answer, saying why", async () => {
    fake.enqueue({ kind: "error", status: 429 }, { kind: "hang" }, { content: "   " });
    const { summarizer, report } = createRecorderSummarizer({ ...upstream(), timeoutMs: 200 }, "gpt-4o");
    const extractive = await extractiveSummarizer(chain, { purpose: "conversation" });
    for (let index = 0; index < 3; index += 1) expect(await summarizer(chain, { purpose: "conversation" })).toBe(extractive);
    expect(report.fallbacks.map((fallback) => fallback.reason)).toEqual([
      expect.stringMatching(/^429 requests: Rate limit reached/),
      expect.stringMatching(/^504 upstream_timeout: /),
      "the upstream's summary was empty",
    ]);
  });
});
