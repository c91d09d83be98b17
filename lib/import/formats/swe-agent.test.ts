// SWE-agent .traj files (lib/import/README.md, rules IM-1–IM-10).
import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture } from "@/tests/fixtures/import/load";
import { parseConversations } from "../index";

const functionCalling = readFixture("formats/swe-agent-function-calling-marshmallow-1867.traj.json");
const older = readFixture("formats/swe-agent-0.x-gpt4-test-repo.traj.json");
type Traj = { history: Record<string, unknown>[]; trajectory: Record<string, unknown>[]; info: Record<string, unknown> };
const traj = (): Traj => JSON.parse(functionCalling) as Traj;

describe("SWE-agent", () => {
  it("[IM-1] recognises a function-calling .traj and a 0.x one, and neither as tau-bench or mini-swe-agent", () => {
    expect(parseConversations(functionCalling).format).toBe("swe-agent");
    expect(parseConversations(older).format).toBe("swe-agent");
  });

  it("[IM-2] a tool message answers the call its tool_call_ids names, even where the demonstration reuses an id", () => {
    const { messages } = parseConversations(functionCalling).conversations[0];
    expect(messages[2].tool_calls?.[0]).toMatchObject({ id: "call_cyI71DYnRdoLHWwtZgIaW2wr", function: { name: "create" } });
    expect(messages[3]).toMatchObject({ role: "tool", tool_call_id: "call_cyI71DYnRdoLHWwtZgIaW2wr" });
    expect(messages[9]).toMatchObject({ role: "tool", tool_call_id: "call_5iDdbOYybq7L19vqXmR0DPaU" });
  });

  it("[IM-10] keeps each step's execution time and state with its assistant message, and info as source", () => {
    const { source, session, facts } = parseConversations(functionCalling).conversations[0];
    const steps = source?.steps as Record<string, unknown>[];
    expect(steps).toHaveLength(11);
    expect(steps[0]).toEqual({ messageIndex: 2, execution_time: 0.2396368359986809, state: { open_file: "/testbed/reproduce.py", working_dir: "/testbed" } });
    expect(steps[10]).toMatchObject({ messageIndex: 22 });
    expect(source?.info).toMatchObject({ exit_status: "submitted", model_stats: { instance_cost: 0, tokens_sent: 0, tokens_received: 0, api_calls: 11 } });
    expect(source?.info).toHaveProperty("submission", expect.stringContaining("return int(round(value.total_seconds()"));
    expect(session).toEqual({ agent: "swe-agent", cwd: "/testbed" });
    expect(facts?.[2]).toEqual({ model: "gpt-4o" });
    expect(facts?.[3]).toBeUndefined();
  });

  it("[IM-2] a 0.x trajectory without function calling is plain messages, its states read from their JSON text", () => {
    const conversation = parseConversations(older).conversations[0];
    expect(conversation.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(conversation.messages.some((message) => message.tool_calls !== undefined)).toBe(false);
    expect(conversation.source?.steps).toHaveProperty("0", {
      messageIndex: 3,
      state: { open_file: "n/a", working_dir: "/klieret__swe-agent-test-repo" },
    });
    expect(conversation.source?.info).toMatchObject({ model_stats: { tokens_sent: 52861, tokens_received: 326, api_calls: 5 } });
    expect(conversation.session?.cwd).toBe("/klieret__swe-agent-test-repo");
  });

  it("[IM-2] keeps an Anthropic model's thinking_blocks as reasoning, with the signature", () => {
    const data = traj();
    data.history[2].thinking_blocks = [{ type: "thinking", thinking: "Reproduce first.", signature: "sig-1" }];
    const { messages } = parseConversations(JSON.stringify(data)).conversations[0];
    expect(messages[2].parts?.[0]).toEqual({
      type: "reasoning",
      text: "Reproduce first.",
      signature: "sig-1",
      extras: { openai: { format: "anthropic-claude-v1" } },
    });
  });

  it("[IM-3] an observation naming two calls answers the first and says so", () => {
    const data = traj();
    data.history[3].tool_call_ids = ["call_cyI71DYnRdoLHWwtZgIaW2wr", "call_other"];
    const { warnings } = parseConversations(JSON.stringify(data)).conversations[0];
    expect(warnings).toContainEqual({
      code: "part-approximated",
      message: "the observation names 2 calls (tool_call_ids): it answers the first, call_cyI71DYnRdoLHWwtZgIaW2wr",
      path: "history[3].tool_call_ids",
    });
  });

  it("[IM-3] a file of several attempts imports the chosen one and says the others were left", () => {
    const data = traj();
    const withAttempts = { ...data, info: { ...data.info, best_attempt_idx: 1 }, attempts: [traj(), traj()] };
    const { conversations } = parseConversations(JSON.stringify(withAttempts));
    expect(conversations).toHaveLength(1);
    expect(conversations[0].warnings).toContainEqual({
      code: "entry-skipped",
      message: "the file holds 2 attempts: imported the one SWE-agent chose (attempt 1); the others are in attempts",
      path: "attempts",
    });
    expect(parseConversations(JSON.stringify({ attempts: [traj(), traj()] })).conversations).toHaveLength(2);
  });

  it("[IM-8] a tool message without tool_call_ids names the history index and the field", () => {
    const data = traj();
    delete data.history[5].tool_call_ids;
    const [issue] = importErrorOf(() => parseConversations(JSON.stringify(data, null, 1))).issues;
    expect(issue).toMatchObject({
      message: "a tool message needs tool_call_ids: the id of the call it answers",
      path: "history[5].tool_call_ids",
      messageIndex: 5,
      format: "SWE-agent trajectory (.traj)",
    });
  });
});
