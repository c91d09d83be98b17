// Claude Code sessions keep their time, usage, subagents and compactions (IM-10–IM-12), on the real files in tests/fixtures/formats.
import { describe, expect, it } from "vitest";
import { readFixture } from "@/tests/fixtures/import/load";
import { parseConversations } from "../../index";

function linesOf(name: string): Record<string, unknown>[] {
  return readFixture(`formats/${name}`)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("Claude Code session facts", () => {
  const name = "claude-code-2.0.76-compaction.jsonl";
  const [conversation] = parseConversations(readFixture(`formats/${name}`), { filename: name }).conversations;
  const lines = linesOf(name);

  it("[IM-10] every message keeps its line's timestamp, and the session its agent, version, cwd, branch and id", () => {
    const facts = conversation.facts ?? [];
    expect(facts).toHaveLength(conversation.messages.length);
    const times = new Set(lines.map((line) => line.timestamp).filter((time): time is string => typeof time === "string"));
    for (const [index, fact] of facts.entries()) expect(times.has(fact?.at ?? ""), `message ${index}`).toBe(true);
    expect(conversation.session).toEqual({
      agent: "claude-code",
      agentVersion: "2.0.76",
      sessionId: "198393f2-22db-477b-ac77-1825bea883ae",
      cwd: "/Users/soph/Work/entire/devenv/cli",
      gitBranch: "soph/bugfix-for-inconsistent-session-state",
    });
  });

  it("[IM-10][F-SF1] every API call keeps its model, request id and usage once, however many lines it was written in", () => {
    const calls = new Map<string, Record<string, unknown>>();
    for (const line of lines) {
      const message = line.message as Record<string, unknown> | undefined;
      if (line.type === "assistant" && typeof message?.id === "string") calls.set(message.id, message.usage as Record<string, unknown>);
    }
    const withUsage = (conversation.facts ?? []).filter((fact) => fact?.usage !== undefined);
    expect(withUsage.map((fact) => fact?.responseId).sort()).toEqual([...calls.keys()].sort());
    for (const fact of withUsage) {
      const raw = calls.get(fact?.responseId ?? "") ?? {};
      expect(fact?.usage?.raw).toEqual(raw);
      expect(fact?.usage?.cacheRead).toBe(raw.cache_read_input_tokens ?? 0);
      expect(fact?.usage?.input).toBe(raw.input_tokens);
    }
    const real = withUsage.filter((fact) => fact?.model !== "<synthetic>");
    expect(real.every((fact) => fact?.model === "claude-opus-4-5-20251101" && fact.requestId?.startsWith("req_"))).toBe(true);
  });

  it("[IM-11] keeps the compaction: where, the summary, the tokens before and what set it off", () => {
    expect(conversation.compactions).toHaveLength(1);
    const [compaction] = conversation.compactions ?? [];
    expect(compaction.tokensBefore).toBe(155250);
    expect(compaction.trigger).toBe("auto");
    expect(compaction.summary).toMatch(/^This session is being continued from a previous conversation/);
    expect(conversation.messages[compaction.at].content).toBe(compaction.summary);
  });
});

describe("Claude Code subagents", () => {
  const name = "claude-code-2.1.19-task-agent-progress.jsonl";
  const { conversations } = parseConversations(readFixture(`formats/${name}`), { filename: name });
  const [main, subagent] = conversations;

  it("[IM-12] a subagent streamed as agent_progress lines is a conversation linked to the Task call that started it", () => {
    expect(conversations).toHaveLength(2);
    expect(subagent.subagentOf).toEqual({
      conversationIndex: 0,
      agentId: "a102bdd",
      parentSessionId: "163396cf-348b-4175-90f5-5ca0986ac0f1",
      toolCallId: "toolu_0141a8id8CWHmsbTaZRTD38W",
    });
    const task = main.messages.flatMap((message) => message.tool_calls ?? []).find((call) => call.id === subagent.subagentOf?.toolCallId);
    expect(task?.function.name).toBe("Task");
    expect(subagent.messages).toHaveLength(29);
    expect(subagent.messages[0].role).toBe("user");
    expect(JSON.parse(task?.function.arguments ?? "{}").prompt.trim()).toBe(subagent.messages[0].content?.trim());
  });

  it("[IM-12][IM-10] the subagent's calls keep their own usage, and no agent_progress line is reported as holding no message", () => {
    expect((subagent.facts ?? []).filter((fact) => fact?.usage !== undefined)).toHaveLength(10);
    const skipped = main.warnings.find((warning) => warning.code === "entry-skipped")?.message ?? "";
    expect(skipped).not.toContain("agent_progress");
    expect(skipped).toContain("progress:hook_progress ×7");
  });
});
