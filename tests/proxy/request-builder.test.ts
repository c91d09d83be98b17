import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { defaultPipelineSpec, OFFLOAD_MARKER_PATTERN, type ToolDefinition } from "@/lib/context";
import { createConversation } from "@/lib/db";
import { recordMessages } from "@/lib/memory";
import { chatRequestBody, requestView } from "@/lib/request";
import { prepareNextRequest } from "@/lib/request/server";
import { readChatCompletionRequest } from "@/lib/proxy";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import type { FakeRequest, FakeScript } from "@/tests/support/fake-openai";
import { bigResult, OFFLOADING } from "./support/offloading";
import { recordedFor, useProxyHarness } from "./support/harness";

// P1–PX-P5 in lib/proxy/README.md: the proxy sends what the one request builder makes of the
// conversation's stored state, answers reload_offloaded itself, refuses over budget.

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const SEARCH_TOOL: ToolDefinition = {
  type: "function",
  function: {
    name: "search_flights",
    description: "Search flights.",
    parameters: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
  },
};
const BOOK_TOOL: ToolDefinition = {
  type: "function",
  function: { name: "book_flight", description: "Book a flight.", parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
};
const TOOLS = [SEARCH_TOOL, BOOK_TOOL];

const OLD_RESULT = bigResult("old", "CONFIRMATION-XQ7731", 15_000);
const NEW_RESULT = bigResult("new", "SEAT-MAP-22F", 15_000);

/** A finished round whose tool result is 15,000 characters, then the active round, waiting on another 15,000-character result. */
function agentHistory(): ChatMessage[] {
  return [
    { role: "system", content: "You book flights." },
    { role: "user", content: "Find flights to Lisbon." },
    { role: "assistant", content: null, tool_calls: [{ id: "call_old", type: "function", function: { name: "search_flights", arguments: '{"to":"LIS"}' } }] },
    { role: "tool", tool_call_id: "call_old", content: OLD_RESULT },
    { role: "assistant", content: "I found several flights." },
    { role: "user", content: "Book the cheapest and tell me the confirmation code." },
    { role: "assistant", content: null, tool_calls: [{ id: "call_new", type: "function", function: { name: "book_flight", arguments: '{"id":"TP1"}' } }] },
    { role: "tool", tool_call_id: "call_new", content: NEW_RESULT },
  ];
}

interface SentMessage {
  role: string;
  content: unknown;
  tool_call_id?: string;
  tool_calls?: { function: { name: string } }[];
}

function messagesOf(request: FakeRequest): SentMessage[] {
  return (request.body?.messages ?? []) as SentMessage[];
}

function toolNames(request: FakeRequest): string[] {
  return ((request.body?.tools ?? []) as ToolDefinition[]).map((tool) => tool.function.name);
}

/** The fake model: reloads the first offloaded handle it sees; once it has the content, answers with the code found in it. */
function reloadingModel(request: FakeRequest): FakeScript {
  const messages = messagesOf(request);
  const last = messages.at(-1);
  const reloaded = last?.role === "tool" && messages.at(-2)?.tool_calls?.[0]?.function.name === "reload_offloaded" ? String(last.content) : null;
  if (reloaded !== null) return { content: `Your confirmation code is ${/CONFIRMATION-\w+/.exec(reloaded)?.[0] ?? "unknown"}.` };
  const handle = messages.map((message) => [...String(message.content ?? "").matchAll(OFFLOAD_MARKER_PATTERN)][0]?.[1]).find(Boolean);
  if (!handle) return { content: "I cannot see the search results." };
  return { toolCalls: [{ id: "call_reload", name: "reload_offloaded", arguments: JSON.stringify({ handle }) }] };
}

describe.each(TEST_PROVIDERS)("proxy: the one request builder (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  it("[PX-P1] forwards exactly the body the Prompt tab previews for the same stored state", async () => {
    const settings = { ...OFFLOADING, historyRounds: 2 };
    const { branch } = await createConversation(test.db, { title: "preview", source: "proxy", recordKey: "preview", settings, tools: TOOLS });
    const history = agentHistory();
    await recordMessages(test.db, branch.id, readChatCompletionRequest({ messages: history }).messages);
    const prepared = await prepareNextRequest(test.db, branch.id);
    const preview = chatRequestBody(requestView(prepared.request, prepared.settings));

    await harness
      .agent("preview")
      .chat.completions.create({ model: preview.model, messages: history, tools: TOOLS as OpenAI.Chat.Completions.ChatCompletionTool[] });
    await harness.recorded();

    expect(harness.fake.requests).toHaveLength(1);
    // The preview's reply limit is the model's default reserve, which the proxy does not add for an agent that set none (PX-L1).
    const { max_tokens: _reserve, ...previewWithoutLimit } = preview;
    expect(harness.fake.requests[0].body).toEqual(previewWithoutLimit);
    // The state was not trivial: the older result went as a marker, with the reload tool.
    expect(JSON.stringify(preview.messages)).toMatch(OFFLOAD_MARKER_PATTERN);
    expect(toolNames(harness.fake.requests[0])).toContain("reload_offloaded");
    // Read-only: the request's turns were already stored, so nothing was added but the reply.
    const { branches, histories } = await recordedFor(test.db, "preview");
    expect(branches).toHaveLength(1);
    expect(histories.get(branch.id)).toHaveLength(history.length + 1);
  });

  it("[PX-P2] honours the processor switches: all off sends the history untouched, one on changes it as the builder says", async () => {
    const allOff = defaultPipelineSpec().map((entry) => ({ ...entry, enabled: false }));
    await createConversation(test.db, { title: "off", source: "proxy", recordKey: "off", settings: { ...OFFLOADING, historyRounds: 1, processors: allOff } });
    const history = agentHistory();
    await harness.agent("off").chat.completions.create({ model: "gpt-4o", messages: history });
    expect(harness.fake.requests[0].body?.messages).toEqual(history);
    expect(harness.fake.requests[0].body?.tools).toBeUndefined();

    const windowOnly = allOff.map((entry) => ({ ...entry, enabled: entry.kind === "round_window" }));
    await createConversation(test.db, {
      title: "window",
      source: "proxy",
      recordKey: "window",
      settings: { ...OFFLOADING, historyRounds: 1, processors: windowOnly },
    });
    await harness.agent("window").chat.completions.create({ model: "gpt-4o", messages: history });
    // The round window alone keeps the system prompt and the last round, whole.
    expect(harness.fake.requests[1].body?.messages).toEqual([history[0], ...history.slice(5)]);
  });

  it("[PX-P3] never hides the active round: its 15,000-character tool result reaches the upstream whole", async () => {
    await createConversation(test.db, { title: "active", source: "proxy", recordKey: "active", settings: OFFLOADING });
    await harness.agent("active").chat.completions.create({ model: "gpt-4o", messages: agentHistory() });
    const sent = messagesOf(harness.fake.requests[0]);
    expect(sent.at(-1)).toEqual({ role: "tool", tool_call_id: "call_new", content: NEW_RESULT });
    // The older round's result is offloaded: a marker in its place, the tool to read it back offered.
    expect(sent[3].content).toMatch(OFFLOAD_MARKER_PATTERN);
    expect(toolNames(harness.fake.requests[0])).toEqual(["reload_offloaded"]);
  });

  for (const stream of [false, true]) {
    it(`[PX-P4] answers the model's reload_offloaded itself and the agent gets the final answer with the reloaded content (${stream ? "streamed" : "whole"})`, async () => {
      await createConversation(test.db, { title: "reload", source: "proxy", recordKey: "reload", settings: OFFLOADING });
      harness.fake.respondWith(reloadingModel);
      const agent = harness.agent("reload");
      let answer = "";
      if (stream) {
        const chunks = await agent.chat.completions.create({ model: "gpt-4o", messages: agentHistory(), stream: true });
        for await (const chunk of chunks) {
          expect(chunk.choices[0]?.delta.tool_calls).toBeUndefined();
          answer += chunk.choices[0]?.delta.content ?? "";
        }
      } else {
        const completion = await agent.chat.completions.create({ model: "gpt-4o", messages: agentHistory() });
        expect(completion.choices[0].message.tool_calls).toBeUndefined();
        answer = completion.choices[0].message.content ?? "";
      }
      expect(answer).toBe("Your confirmation code is CONFIRMATION-XQ7731.");

      // Two upstream calls: the second carries the model's call and the whole original as its result.
      expect(harness.fake.requests).toHaveLength(2);
      const again = messagesOf(harness.fake.requests[1]);
      expect(again.at(-2)?.tool_calls).toEqual([
        { id: "call_reload", type: "function", function: { name: "reload_offloaded", arguments: expect.any(String) } },
      ]);
      expect(again.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_reload", content: OLD_RESULT });

      // Recorded: the agent's turns and the final answer; the reload rounds on the reply's metadata.
      await harness.recorded();
      const { branches, records, exchanges } = await recordedFor(test.db, "reload");
      const stored = records.get(branches[0].id)!;
      expect(stored.map((record) => record.message.role)).toEqual([
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
      ]);
      expect(stored.at(-1)?.message.content).toBe(answer);
      expect(stored.at(-1)?.metadata?.reloads).toEqual([{ handles: [expect.stringMatching(/^off_/)], found: [true], characters: [OLD_RESULT.length] }]);
      expect(exchanges).toHaveLength(1);
      expect(exchanges[0]).toMatchObject({ status: 200, streamed: stream, error: null });
    });
  }

  it("[PX-P4] sends no marker and no reload tool when the conversation turns the reload tool off", async () => {
    await createConversation(test.db, { title: "no reload", source: "proxy", recordKey: "no-reload", settings: { ...OFFLOADING, reloadTool: false } });
    await harness.agent("no-reload").chat.completions.create({ model: "gpt-4o", messages: agentHistory() });
    expect(JSON.stringify(harness.fake.requests[0].body?.messages)).not.toMatch(OFFLOAD_MARKER_PATTERN);
    expect(harness.fake.requests[0].body?.tools).toBeUndefined();
  });

  it("[PX-P3] refuses an over-budget request with 400 context_budget_exceeded and its figures; the upstream is never called", async () => {
    await createConversation(test.db, { title: "tight", source: "proxy", recordKey: "tight", settings: { ...OFFLOADING, tokenBudget: 40 } });
    let error: unknown;
    try {
      await harness.agent("tight").chat.completions.create({ model: "gpt-4o", messages: agentHistory() });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const body = (error as InstanceType<typeof OpenAI.BadRequestError>).error as { budget: number; tokens: number };
    expect(error).toMatchObject({ status: 400, type: "context_budget_exceeded", code: "context_budget_exceeded", param: "messages" });
    expect(body.budget).toBe(40);
    expect(body.tokens).toBeGreaterThan(40);
    expect(harness.fake.requests).toHaveLength(0);
  });
});
