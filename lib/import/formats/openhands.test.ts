// OpenHands trajectories and event streams (lib/import/README.md, rules IM-1–IM-11).
import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture } from "@/tests/fixtures/import/load";
import { parseConversations } from "../index";

const gui = readFixture("formats/openhands-trajectory-gui-mode.json");
const stream = readFixture("formats/openhands-events-condensation.jsonl");
const events = (): Record<string, unknown>[] => JSON.parse(gui) as Record<string, unknown>[];
const streamEvents = (): Record<string, unknown>[] =>
  stream
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("OpenHands", () => {
  it("[IM-1] recognises the GUI's downloaded list, the API's {events} and {trajectory}, and events one a line", () => {
    expect(parseConversations(gui).format).toBe("openhands");
    expect(parseConversations(JSON.stringify({ events: events(), has_more: false })).format).toBe("openhands");
    expect(parseConversations(JSON.stringify({ trajectory: events() })).format).toBe("openhands");
    const lines = parseConversations(stream);
    expect(lines.format).toBe("openhands");
    expect(lines.conversations[0].messages).toHaveLength(10);
  });

  it("[IM-1] a forced openhands format reads the GUI's list, though it is one JSON document", () => {
    const result = parseConversations(gui, { format: "openhands" });
    expect(result.conversations[0].messages).toHaveLength(10);
  });

  it("[IM-10] keeps each event's timestamp (read as UTC) and the model, usage, response id and stop reason of its model response", () => {
    const { facts } = parseConversations(gui).conversations[0];
    expect(facts?.[0]).toEqual({ at: "2025-01-20T20:29:32.262Z" });
    expect(facts?.[1]).toMatchObject({
      at: "2025-01-20T20:29:35.040Z",
      model: "claude-3-5-sonnet-20241022",
      responseId: "chatcmpl-6bb9f175-c587-44b4-8c8d-f91fc4827590",
      stopReason: "tool_calls",
      usage: { input: 4, cacheRead: 0, cacheWrite5m: 3435, output: 104 },
    });
    expect(facts?.[2]).toEqual({ at: "2025-01-20T20:29:35.699Z" });
  });

  it("[IM-10] takes a call's usage and latency from llm_metrics when its response has none, and keeps the run's totals and version", () => {
    const conversation = parseConversations(stream).conversations[0];
    const think = conversation.facts?.[7];
    expect(think?.usage).toMatchObject({ input: 130, cacheRead: 1980, output: 65 });
    expect(think?.latencyMs).toBe(2150);
    expect(conversation.facts?.[2]?.latencyMs).toBe(3410);
    expect(conversation.source?.llmMetrics).toMatchObject({ accumulated_cost: 0.0412 });
    expect(conversation.source?.agentClass).toBe("CodeActAgent");
    expect(conversation.session).toEqual({ agent: "openhands", agentVersion: "0.40.0" });
    expect(conversation.tools?.map((tool) => tool.function.name)).toEqual(["execute_bash", "think", "finish"]);
  });

  it("[IM-2] one model response is one assistant message: parallel calls stay one turn, each observation answers its call", () => {
    const { messages } = parseConversations(stream).conversations[0];
    expect(messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(messages[4].tool_calls?.map((call) => call.id)).toEqual(["toolu_01B", "toolu_01C"]);
    expect(messages.slice(5, 7).map((message) => message.tool_call_id)).toEqual(["toolu_01B", "toolu_01C"]);
    expect(messages[1].parts?.map((part) => part.type)).toEqual(["text", "image"]);
    expect(messages[2].parts?.[0]).toMatchObject({ type: "reasoning", signature: "EqQBCkYIBxgCKkCsQ7ZnWv0kXq6GmL1d" });
  });

  it("[IM-11] a condensation action is a compaction: where it happened, the summary, when and why", () => {
    const conversation = parseConversations(stream).conversations[0];
    expect(conversation.compactions).toEqual([
      {
        at: 7,
        trigger: "auto",
        summary: expect.stringContaining("USER_CONTEXT: the app crashes on empty input."),
        facts: { at: "2025-06-02T09:14:29.006Z" },
      },
    ]);
    expect(conversation.warnings).toContainEqual({
      code: "marker",
      message: "OpenHands condensed the history here: the model no longer saw events 4–9, but a summary of it",
      messageIndex: 7,
      path: "[10]",
    });
  });

  it("[IM-11] an AgentCondensationObservation after a condensation request is a manual compaction with its content as the summary", () => {
    const list = events();
    list.splice(
      11,
      0,
      { id: 30, timestamp: "2025-01-20T20:29:50", source: "user", message: "", action: "condensation_request", args: {} },
      {
        id: 31,
        timestamp: "2025-01-20T20:29:51",
        source: "environment",
        message: "",
        observation: "condense",
        content: "Summary of the work so far",
        extras: {},
      },
    );
    list.forEach((event, index) => Object.assign(event, { id: index }));
    const [compaction] = parseConversations(JSON.stringify(list)).conversations[0].compactions ?? [];
    expect(compaction).toEqual({ at: 5, trigger: "manual", summary: "Summary of the work so far", facts: { at: "2025-01-20T20:29:51.000Z" } });
  });

  it("[IM-3] counts the events that hold no message in one warning", () => {
    expect(parseConversations(gui).conversations[0].warnings).toEqual([
      { code: "entry-skipped", message: "skipped 8 events that hold no message (agent_state_changed ×4, change_agent_state ×1, null ×3)" },
    ]);
  });

  it("[IM-3] reads events out of id order (a folder listed by name) in id order, and says so", () => {
    const lines = streamEvents();
    const shuffled = [lines[0], ...lines.slice(10), ...lines.slice(1, 10)];
    const conversation = parseConversations(shuffled.map((event) => JSON.stringify(event)).join("\n")).conversations[0];
    expect(conversation.messages.map((message) => message.role)).toEqual(parseConversations(stream).conversations[0].messages.map((message) => message.role));
    expect(conversation.warnings.map((warning) => warning.code)).toContain("shape-normalised");
  });

  it("[IM-2] without function calling an action's call gets an id from its event id, answered by the observation it caused", () => {
    const list = events().map((event) => {
      const { tool_call_metadata: _metadata, ...rest } = event;
      return rest;
    });
    const conversation = parseConversations(JSON.stringify(list)).conversations[0];
    expect(conversation.messages[1].tool_calls?.[0]).toMatchObject({ id: "openhands_call_7", function: { name: "run" } });
    expect(JSON.parse(conversation.messages[1].tool_calls?.[0].function.arguments ?? "{}")).toMatchObject({ command: "mkdir -p /workspace/todo-app" });
    expect(conversation.messages[2]).toMatchObject({ role: "tool", tool_call_id: "openhands_call_7" });
    expect(conversation.warnings.map((warning) => warning.code)).toContain("call-id-generated");
    expect(conversation.warnings.map((warning) => warning.code)).not.toContain("orphan-tool-result");
  });

  it("[IM-8] a tool action whose metadata lost its model response names the event and the field", () => {
    const list = events();
    delete (list[9].tool_call_metadata as Record<string, unknown>).model_response;
    const [issue] = importErrorOf(() => parseConversations(JSON.stringify(list, null, 1))).issues;
    expect(issue).toMatchObject({
      message: "tool_call_metadata needs the model_response, with choices[0].message",
      path: "[9].tool_call_metadata.model_response",
      messageIndex: 9,
      format: "OpenHands trajectory / events",
    });
  });

  it("[IM-1] does not take a list of chat messages or a SWE-agent trajectory", () => {
    expect(parseConversations('[{"role": "user", "content": "hi"}]').format).toBe("openai");
    expect(parseConversations(readFixture("formats/swe-agent-0.x-gpt4-test-repo.traj.json")).format).toBe("swe-agent");
  });
});
