// mini-swe-agent trajectories (lib/import/README.md, rules IM-1–IM-10).
import { describe, expect, it } from "vitest";
import { readFixture } from "@/tests/fixtures/import/load";
import { parseConversations } from "../index";

const textBased = readFixture("formats/mini-swe-agent-1.15-gemini-django-11099.traj.json");
const toolCalls = readFixture("formats/mini-swe-agent-2-toolcall-exit.traj.json");
type Trajectory = { info: Record<string, unknown>; messages: Record<string, unknown>[]; trajectory_format?: string };
const trajectory = (): Trajectory => JSON.parse(toolCalls) as Trajectory;

describe("mini-swe-agent", () => {
  it("[IM-1] recognises trajectory_format, or info.mini_version when a harness left the format out", () => {
    expect(parseConversations(textBased).format).toBe("mini-swe-agent");
    const { trajectory_format: _format, ...withoutFormat } = trajectory();
    expect(parseConversations(JSON.stringify(withoutFormat)).format).toBe("mini-swe-agent");
    expect(parseConversations(JSON.stringify({ messages: [{ role: "user", content: "hi" }], info: {} })).format).toBe("openai");
  });

  it("[IM-3] keeps the final exit message as the run's end, in source and a marker, not as a message", () => {
    const conversation = parseConversations(toolCalls).conversations[0];
    expect(conversation.messages).toHaveLength(7);
    expect(conversation.messages.every((message) => (message.role as string) !== "exit")).toBe(true);
    expect(conversation.source?.exit).toMatchObject({ exit_status: "Submitted", submission: expect.stringContaining("if not line:") });
    expect(conversation.warnings).toContainEqual({
      code: "marker",
      message: "the run ended here (Submitted): mini-swe-agent's exit message, which no model was sent, is kept as source.exit",
      messageIndex: 6,
      path: "messages[7]",
    });
  });

  it("[IM-10] keeps each message's extra timestamp and its response's model, usage, id and finish reason", () => {
    const { facts, session, source } = parseConversations(toolCalls).conversations[0];
    expect(facts?.[2]).toMatchObject({
      at: "2026-01-01T10:00:01.412Z",
      model: "claude-sonnet-4-5-20250929",
      responseId: "chatcmpl-5d0b7c3a-2f4e-4c1b-9a6e-8e1f2d3c4b5a",
      stopReason: "tool_calls",
      usage: { input: 4, cacheRead: 0, cacheWrite5m: 1839, output: 88 },
    });
    expect(facts?.[3]).toEqual({ at: "2026-01-01T10:00:01.698Z" });
    expect(facts?.[0]).toBeUndefined();
    expect(session).toEqual({ agent: "mini-swe-agent", agentVersion: "2.1.0", cwd: "/testbed" });
    expect(source?.info).toMatchObject({ exit_status: "Submitted", model_stats: { instance_cost: 0.0152, api_calls: 3 } });
  });

  it("[IM-10] a 1.x trajectory's messages take their time from the saved response and their usage from it", () => {
    const { facts } = parseConversations(textBased).conversations[0];
    expect(facts?.[2]).toMatchObject({
      at: "2025-11-18T23:41:24.000Z",
      model: "google/gemini-3-pro-preview",
      usage: { input: 1460, output: 246, reasoning: 192 },
      stopReason: "stop",
    });
  });

  it("[IM-2] keeps the reasoning 1.x saved only in the response, and 2.x thinking_blocks with their signature", () => {
    const older = parseConversations(textBased).conversations[0].messages;
    expect(older[2].parts?.[0]).toMatchObject({
      type: "reasoning",
      text: expect.stringContaining("**Refining Bug Resolution**"),
      encrypted: expect.any(String),
    });
    expect((older[6].parts ?? []).some((part) => part.type === "reasoning")).toBe(false);
    const newer = parseConversations(toolCalls).conversations[0].messages;
    expect(newer[2].parts?.[0]).toMatchObject({ type: "reasoning", signature: "ErUBCkYIBhgCIkB0c2lnbmF0dXJl" });
  });

  it("[IM-2] reads a Responses-model trajectory: each response's output items, its function_call_output answers", () => {
    const data = {
      info: { mini_version: "2.1.0", exit_status: "Submitted", submission: "" },
      trajectory_format: "mini-swe-agent-1.1",
      messages: [
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: "List the files." },
        {
          id: "resp_01",
          object: "response",
          created_at: 1767261601,
          model: "gpt-5-mini",
          status: "completed",
          output: [
            { type: "reasoning", id: "rs_01", summary: [{ type: "summary_text", text: "List them." }] },
            { type: "function_call", id: "fc_01", call_id: "call_01", name: "bash", arguments: '{"command": "ls"}' },
          ],
          usage: { input_tokens: 120, output_tokens: 30, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 12 } },
          extra: { actions: [{ command: "ls", tool_call_id: "call_01" }], cost: 0.001, timestamp: 1767261601.5 },
        },
        { type: "function_call_output", call_id: "call_01", output: "README.md", extra: { returncode: 0, timestamp: 1767261602.25 } },
        { role: "exit", content: "", extra: { exit_status: "Submitted", submission: "" } },
      ],
    };
    const conversation = parseConversations(JSON.stringify(data)).conversations[0];
    expect(conversation.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(conversation.messages[2].tool_calls?.[0].id).toBe("call_01");
    expect(conversation.messages[3].tool_call_id).toBe("call_01");
    expect(conversation.facts?.[2]).toMatchObject({ at: "2026-01-01T10:00:01.500Z", model: "gpt-5-mini", responseId: "resp_01", stopReason: "completed" });
    expect(conversation.facts?.[2]?.usage).toMatchObject({ input: 120, output: 30, reasoning: 12 });
    expect(conversation.facts?.[3]).toEqual({ at: "2026-01-01T10:00:02.250Z" });
  });
});
