// Codex rollouts keep their time, usage and compactions (IM-10, IM-11), on the real file in tests/fixtures/formats.
import { describe, expect, it } from "vitest";
import { readFixture } from "@/tests/fixtures/import/load";
import { parseConversations } from "../index";

describe("Codex rollout facts", () => {
  const name = "codex-0.104-compacted-window.jsonl";
  const text = readFixture(`formats/${name}`);
  const [conversation] = parseConversations(text, { filename: name }).conversations;
  const lines = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { type: string; timestamp: string; payload: Record<string, unknown> });

  it("[IM-10] keeps the session's id, version, cwd and branch, and each message's time and model", () => {
    expect(conversation.session).toEqual({
      agent: "codex",
      sessionId: "019c8a59-e9dd-71f0-9ae3-4079fe9726a9",
      cwd: "/redacted/path/59b923df4d",
      agentVersion: "0.104.0-alpha.1",
      gitBranch: "main",
    });
    const times = new Set(lines.map((line) => line.timestamp));
    const facts = conversation.facts ?? [];
    expect(facts).toHaveLength(conversation.messages.length);
    expect(facts.every((fact) => fact?.at !== undefined && times.has(fact.at))).toBe(true);
    const assistants = facts.filter((_, index) => conversation.messages[index].role === "assistant");
    expect(assistants.every((fact) => fact?.model === "gpt-5.3-codex")).toBe(true);
  });

  it("[IM-10][F-SF1] every model call's token_count usage is kept once, on its first assistant message", () => {
    // Codex writes a call's token_count again when the next turn starts: the running total tells the calls apart.
    type Info = { last_token_usage: { input_tokens: number; output_tokens: number }; total_token_usage: { total_tokens: number } } | null;
    const counts = lines.filter((line) => line.type === "event_msg" && line.payload.type === "token_count").map((line) => line.payload.info as Info);
    const reported = counts
      .filter((info, index) => info !== null && info.total_token_usage.total_tokens !== counts[index - 1]?.total_token_usage.total_tokens)
      .map((info) => info?.last_token_usage)
      .filter((usage) => usage !== undefined && (usage.input_tokens > 0 || usage.output_tokens > 0));
    const kept = (conversation.facts ?? []).flatMap((fact) => (fact?.usage === undefined ? [] : [fact.usage]));
    expect(kept.map((usage) => usage.raw)).toEqual(reported);
    for (const usage of kept) {
      const raw = usage.raw as { input_tokens: number; cached_input_tokens: number; reasoning_output_tokens: number };
      expect(usage.input + usage.cacheRead).toBe(raw.input_tokens);
      expect(usage.cacheRead).toBe(raw.cached_input_tokens);
      expect(usage.reasoning).toBe(raw.reasoning_output_tokens);
    }
  });

  it("[IM-11] keeps the compaction with the replacement history the model received from then on", () => {
    const [compaction] = conversation.compactions ?? [];
    expect(conversation.compactions).toHaveLength(1);
    expect(compaction.at).toBe(0);
    const compacted = lines.find((line) => line.type === "compacted");
    const history = compacted?.payload.replacement_history as { type: string; role?: string }[];
    expect(history).toHaveLength(40);
    const messageItems = history.filter((item) => item.type === "message").length;
    expect(compaction.replacement?.filter((message) => message.content !== null).length).toBe(messageItems);
    expect(compaction.facts?.at).toBe(compacted?.timestamp);
  });

  it("[E-S1.1] a developer message between a call and its output does not break the pair", () => {
    const moved = conversation.warnings.filter((warning) => warning.code === "interleaved-message-moved");
    expect(moved).toHaveLength(3);
    const calls = conversation.messages.flatMap((message) => message.tool_calls ?? []).length;
    expect(calls).toBe(81);
  });
});
