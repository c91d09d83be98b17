import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture, readFixtureJson } from "@/tests/fixtures/import/load";
import { parseConversations } from "../index";

type AgentFile = { agents: ({ name: string; messages: Record<string, unknown>[]; in_context_message_ids: string[] } & Record<string, unknown>)[] };

const V1 = "formats/letta-af-v1-memgpt-agent-with-convo.af.json";
const V2 = "formats/letta-af-v2-letta-code-approvals.af.json";
const v1 = parseConversations(readFixture(V1)).conversations[0];
const v2 = parseConversations(readFixture(V2)).conversations[0];

describe("Letta agent files, v1", () => {
  it("[IM-10] keeps each message's time (Letta's naive UTC) and the model that answered, and names the agent", () => {
    expect(v1.facts?.[4]).toEqual({ at: "2025-04-01T03:51:08.745Z" });
    expect(v1.facts?.[5]).toEqual({ at: "2025-04-01T03:51:11.615Z", model: "gpt-4-0613" });
    expect(v1.title).toBe("memgpt_agent");
    expect(v1.session).toEqual({ agent: "letta", agentVersion: "0.6.47" });
    expect(v1.source).toMatchObject({ agentName: "memgpt_agent", agentType: "memgpt_agent", model: "gpt-4-0613", contextWindow: 8192 });
    expect(v1.tools?.map((tool) => tool.function.name)).toContain("core_memory_replace");
  });

  it("[IM-3] moves a memory rebuild out from between a call and its result, keeping the pair, and says so", () => {
    const call = v1.messages[5].tool_calls?.[0].id;
    expect(v1.messages[6]).toMatchObject({ role: "tool", tool_call_id: call });
    expect(v1.messages[7].role).toBe("system");
    expect(v1.facts?.[7]?.at).toBe("2025-04-01T03:51:11.686Z");
    const moved = v1.warnings.filter((warning) => warning.code === "system-moved");
    expect(moved.map((warning) => [warning.messageIndex, warning.path])).toEqual([
      [7, "messages[6]"],
      [17, "messages[16]"],
      [54, "messages[53]"],
      [73, "messages[72]"],
      [90, "messages[89]"],
    ]);
    expect(moved[0].message).toContain(`tool call ${call}`);
  });

  it("[IM-11] records the messages outside in_context_message_indices as evicted, with Letta's summary", () => {
    expect(v1.compactions).toEqual([{ at: 80, summary: expect.stringMatching(/^Note: prior messages \(69 of 80 total messages\) have been hidden/) }]);
    expect(v1.warnings.find((warning) => warning.code === "marker")).toMatchObject({ messageIndex: 80, path: "in_context_message_indices" });
  });
});

describe("Letta agent files, v2", () => {
  it("[IM-2] reads approval requests as the assistant's calls, each tool_return as a result, and keeps the thinking signatures", () => {
    expect(v2.messages[2].tool_calls).toHaveLength(4);
    const results = v2.messages.slice(3, 7).map((message) => message.tool_call_id);
    expect(results.sort()).toEqual(v2.messages[2].tool_calls?.map((call) => call.id).sort());
    expect(v2.messages[2].parts?.[0]).toMatchObject({ type: "reasoning", signature: expect.stringMatching(/^EsYECkYI/) });
    expect(v2.messages[15].content).toContain("request to call tool denied");
  });

  it("[IM-3] skips the approval responses, which Letta does not send, with one warning counting them", () => {
    expect(v2.messages.some((message) => message.role === "assistant" && !message.tool_calls && message.content === null && !message.parts)).toBe(false);
    expect(v2.warnings[0]).toMatchObject({ code: "entry-skipped", message: expect.stringMatching(/^skipped 4 approval responses/) });
  });

  it("[IM-10] keeps each message's time and the model, and the agent's tools from its tool_ids", () => {
    expect(v2.facts?.[1]).toEqual({ at: "2025-11-29T02:51:49.549Z" });
    expect(v2.facts?.[10]).toMatchObject({ model: "claude-sonnet-4-5-20250929" });
    expect(v2.session).toEqual({ agent: "letta" });
    expect(v2.tools).toHaveLength(16);
  });

  it("[IM-11] records the messages outside in_context_message_ids as evicted, from the first one still in context", () => {
    const file = readFixtureJson<AgentFile>(V2);
    file.agents[0].in_context_message_ids = ["message-0", "message-16", "message-17", "message-18", "message-19"];
    const evicted = parseConversations(JSON.stringify(file)).conversations[0];
    expect(evicted.compactions).toEqual([{ at: 16 }]);
    expect(evicted.warnings.find((warning) => warning.code === "marker")).toMatchObject({
      messageIndex: 16,
      path: "agents[0].in_context_message_ids",
      message: expect.stringMatching(/^Letta evicted 11 messages/),
    });
  });

  it("[IM-11] takes a summary of messages evicted before the export as a compaction, and an emptied context as a warning", () => {
    const file = readFixtureJson<AgentFile>(V2);
    const alert = {
      type: "system_alert",
      message: "Note: prior messages have been hidden from view.\nThe following is a summary of the previous messages: setup.",
    };
    file.agents[0].messages.splice(1, 0, { ...file.agents[0].messages[1], id: "message-s", content: [{ type: "text", text: JSON.stringify(alert) }] });
    file.agents[0].in_context_message_ids.push("message-s");
    const summarised = parseConversations(JSON.stringify(file)).conversations[0];
    expect(summarised.compactions).toEqual([{ at: 1, summary: alert.message }]);
    file.agents[0].in_context_message_ids = ["message-0"];
    const cleared = parseConversations(JSON.stringify(file)).conversations[0];
    expect(cleared.compactions).toBeUndefined();
    expect(cleared.warnings.find((warning) => warning.code === "marker")?.message).toMatch(/^Letta cleared all 16 messages after the system prompt/);
  });

  it("[IM-1] makes one conversation for each agent with messages, titled by its name, and says which agents it left out", () => {
    const file = readFixtureJson<AgentFile>(V2);
    const second = { ...file.agents[0], name: "sleeptime", id: "agent-1", messages: file.agents[0].messages.slice(0, 2) };
    file.agents.push(second, { ...file.agents[0], name: "idle", id: "agent-2", messages: [], in_context_message_ids: [] });
    const result = parseConversations(JSON.stringify(file));
    expect(result.conversations.map((conversation) => [conversation.title, conversation.messages.length])).toEqual([
      ["letta-cli-agent", 20],
      ["sleeptime", 2],
    ]);
    const skipped = result.conversations[0].warnings.filter((warning) => warning.code === "entry-skipped");
    expect(skipped.map((warning) => warning.message)).toContain('agent "idle" holds no messages: not imported');
  });

  it("[IM-1] reads an agent file saved as one JSON string, and says so", () => {
    const result = parseConversations(JSON.stringify(readFixture(V2)));
    expect(result.format).toBe("letta");
    expect(result.conversations[0].messages).toHaveLength(20);
    expect(result.conversations[0].warnings[0].code).toBe("shape-normalised");
  });

  it("[IM-8] refuses a message of an unknown role, naming the agent's message and the field", () => {
    const file = readFixtureJson<AgentFile>(V2);
    file.agents[0].messages[1].role = "narrator";
    const [issue] = importErrorOf(() => parseConversations(JSON.stringify(file, null, 1))).issues;
    expect(issue).toMatchObject({ path: "agents[0].messages[1].role", messageIndex: 1, format: "Letta agent file (.af)" });
  });
});
