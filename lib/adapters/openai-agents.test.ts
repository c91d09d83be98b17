// The OpenAI Agents SDK's own runner (Responses model) against the fake upstream, with the input filter (AD-5).
import { Agent, OpenAIProvider, Runner, tool, type AgentInputItem } from "@openai/agents";
import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { useProxyHarness, UPSTREAM_KEY } from "@/tests/proxy/support/harness";
import { contextPolicyInputFilter } from "./openai-agents";
import { expectAsContextLab } from "./test-support/reference";
import {
  ANSWER,
  BOOKED,
  bookingScript,
  history,
  historyAfterBooking,
  LAST_QUESTION,
  requestPolicy,
  ROUNDS,
  savedPolicy,
  SYSTEM,
  TOOLS,
} from "./test-support/scenario";

/** The scenario's history as the SDK's input items (what `result.history` holds after earlier runs). */
function inputItems(): AgentInputItem[] {
  return [
    ...ROUNDS.flatMap((round): AgentInputItem[] => [
      { role: "user", content: round.question },
      { type: "function_call", callId: round.callId, name: "search_flights", arguments: JSON.stringify({ to: round.city }), status: "completed" },
      { type: "function_call_result", callId: round.callId, name: "search_flights", status: "completed", output: { type: "text", text: round.result } },
      { role: "assistant", status: "completed", content: [{ type: "output_text", text: round.answer }] },
    ]),
    { role: "user", content: LAST_QUESTION },
  ];
}

function agent(): Agent {
  const functionTool = (definition: (typeof TOOLS)[number], execute: () => Promise<string>) =>
    tool({
      name: definition.function.name,
      description: definition.function.description ?? "",
      parameters: definition.function.parameters as never,
      strict: true,
      execute,
    });
  return new Agent({
    name: "Travel",
    instructions: SYSTEM,
    model: "fake-gpt",
    tools: [functionTool(TOOLS[0], async () => "no flights"), functionTool(TOOLS[1], async () => BOOKED)],
  });
}

describe.each(TEST_PROVIDERS)("OpenAI Agents SDK adapter (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  it("[AD-1][AD-5] callModelInputFilter: each model call of a run sends what the Prompt tab previews and the proxy forwards", async () => {
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ baseURL: harness.fake.baseUrl, apiKey: UPSTREAM_KEY }),
      tracingDisabled: true,
      callModelInputFilter: contextPolicyInputFilter(requestPolicy()),
    });
    harness.fake.enqueue(...bookingScript("call_book_agents"));
    const result = await runner.run(agent(), inputItems());
    expect(result.finalOutput).toBe(ANSWER);
    const [one, two] = harness.fake.requests;
    expect(one.path).toBe("/v1/responses");
    // The instructions stay the instructions.
    expect(one.body?.instructions).toBe(SYSTEM);
    const policy = savedPolicy();
    await expectAsContextLab(test.db, harness, one, { label: "agents-1", history: history(), tools: TOOLS, policy });
    const rows = await expectAsContextLab(test.db, harness, two, { label: "agents-2", history: historyAfterBooking("call_book_agents"), tools: TOOLS, policy });
    expect(rows.at(-1)).toMatchObject({ role: "tool", text: BOOKED, toolCallId: "call_book_agents" });
  });
});
