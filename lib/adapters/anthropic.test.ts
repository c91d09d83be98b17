// The Anthropic SDK's own client against the fake upstream, its params passed through the adapter (AD-2).
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { writeAnthropicRequest } from "@/lib/formats";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { ANTHROPIC_UPSTREAM_KEY, useProxyHarness } from "@/tests/proxy/support/harness";
import { contextPolicyMessagesRequest } from "./anthropic";
import { expectAsContextLab } from "./test-support/reference";
import { BOOKED, bookingScript, history, historyAfterBooking, requestPolicy, savedPolicy, SYSTEM, TOOLS } from "./test-support/scenario";

describe.each(TEST_PROVIDERS)("Anthropic SDK adapter (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  it("[AD-1][AD-2] messages: each call of a tool loop sends what the Prompt tab previews and the proxy forwards", async () => {
    const client = new Anthropic({ baseURL: harness.fake.anthropicBaseUrl, apiKey: ANTHROPIC_UPSTREAM_KEY, maxRetries: 0 });
    const withPolicy = contextPolicyMessagesRequest(requestPolicy());
    const written = writeAnthropicRequest({ messages: history(), tools: TOOLS }).value as Pick<
      Anthropic.MessageCreateParamsNonStreaming,
      "system" | "messages" | "tools"
    >;
    expect(written.system).toBe(SYSTEM);
    const { messages, tools } = written;
    harness.fake.enqueue(...bookingScript("toolu_book"));
    const first = await client.messages.create(await withPolicy({ model: "fake-claude", max_tokens: 1024, system: SYSTEM, messages, tools }));
    const use = first.content.find((block) => block.type === "tool_use")!;
    messages.push({ role: "assistant", content: first.content }, { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: BOOKED }] });
    await client.messages.create(await withPolicy({ model: "fake-claude", max_tokens: 1024, system: SYSTEM, messages, tools }));
    const [one, two] = harness.fake.requests;
    expect(one.body).toMatchObject({ model: "fake-claude", max_tokens: 1024, system: SYSTEM });
    const policy = savedPolicy();
    await expectAsContextLab(test.db, harness, one, { label: "anthropic-1", history: history(), tools: TOOLS, policy });
    const rows = await expectAsContextLab(test.db, harness, two, { label: "anthropic-2", history: historyAfterBooking("toolu_book"), tools: TOOLS, policy });
    expect(rows.at(-1)).toMatchObject({ role: "tool", text: BOOKED, toolCallId: "toolu_book" });
  });
});
