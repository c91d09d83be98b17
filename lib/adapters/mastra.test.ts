// Mastra's own agent (model router, OpenAI-compatible) against the fake upstream, with the input processor (AD-6).
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { useProxyHarness, UPSTREAM_KEY } from "@/tests/proxy/support/harness";
import { contextPolicyProcessor } from "./mastra";
import { receivedRows } from "./test-support/sent";
import { expectAsContextLab } from "./test-support/reference";
import {
  ANSWER,
  BOOKED,
  BOOKING_ARGUMENTS,
  bookingScript,
  history,
  LAST_QUESTION,
  requestPolicy,
  ROUNDS,
  savedPolicy,
  SYSTEM,
  TOOLS,
} from "./test-support/scenario";

/** What `generate` takes. */
type GenerateInput = Parameters<Agent["generate"]>[0];
type InputMessage = Exclude<Extract<GenerateInput, readonly unknown[]>[number], string>;

/** The scenario's history as the messages a Mastra app passes to `generate` (AI SDK core messages). */
function inputMessages(): GenerateInput {
  return [
    ...ROUNDS.flatMap((round): InputMessage[] => [
      { role: "user", content: round.question },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: round.callId, toolName: "search_flights", args: { to: round.city } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: round.callId, toolName: "search_flights", result: round.result }] },
      { role: "assistant", content: round.answer },
    ]),
    { role: "user", content: LAST_QUESTION },
  ];
}

describe.each(TEST_PROVIDERS)("Mastra adapter (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  it("[AD-1][AD-6] input processor: the call's model request is what the Prompt tab previews and the proxy forwards; its tool loop adds to it", async () => {
    const agent = new Agent({
      // A name of its own per run: Mastra keeps state by agent name across the process.
      name: `travel-${provider}`,
      instructions: SYSTEM,
      model: { providerId: "openai", modelId: "fake-gpt", url: harness.fake.baseUrl, apiKey: UPSTREAM_KEY },
      tools: {
        search_flights: createTool({
          id: "search_flights",
          description: TOOLS[0].function.description ?? "",
          inputSchema: z.object({ to: z.string() }),
          execute: async () => "no flights",
        }),
        book_flight: createTool({
          id: "book_flight",
          description: TOOLS[1].function.description ?? "",
          inputSchema: z.object({ id: z.string() }),
          execute: async () => BOOKED,
        }),
      },
      inputProcessors: [contextPolicyProcessor(requestPolicy(), { instructions: SYSTEM, tools: TOOLS })],
    });
    harness.fake.enqueue(...bookingScript("call_book_mastra"));
    const result = await agent.generate(inputMessages(), { maxSteps: 3 });
    expect(result.text).toBe(ANSWER);
    // The loop's two model calls, told apart by what they carry rather than by arrival order.
    const sent = (request: (typeof harness.fake.requests)[number]) => (Array.isArray(request.body?.messages) ? request.body.messages.length : 0);
    const calls = harness.fake.requests.filter((request) => sent(request) > 0).sort((left, right) => sent(left) - sent(right));
    expect(calls).toHaveLength(2);
    const [one, two] = calls;
    const rows = await expectAsContextLab(test.db, harness, one, { label: "mastra-1", history: history(), tools: TOOLS, policy: savedPolicy() });
    // The second step is the first request, the model's call and its result: Mastra processes a call's input once.
    // Mastra orders a step's messages by their creation time, which ties within a millisecond: the step holds the
    // first request's messages and the booking call and its result, in an order Mastra does not fix.
    const second = receivedRows(two, requestPolicy());
    expect(second).toHaveLength(rows.length + 2);
    for (const row of rows) expect(second).toContainEqual(row);
    expect(second).toContainEqual(
      expect.objectContaining({ role: "assistant", toolCalls: [{ id: "call_book_mastra", name: "book_flight", arguments: JSON.parse(BOOKING_ARGUMENTS) }] }),
    );
    expect(second).toContainEqual(expect.objectContaining({ role: "tool", toolCallId: "call_book_mastra", text: BOOKED }));
  });
});
