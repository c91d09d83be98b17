import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture, readFixtureJson, TAU_BENCH_FULL } from "@/tests/fixtures/import/load";
import { parseConversations } from "./index";

interface Entry {
  task_id: number;
  reward: number;
  trial: number;
  info: Record<string, unknown>;
  traj: unknown[];
}

const sampleText = readFixture("tau-bench-airline-sample.json");
const sample = readFixtureJson<Entry[]>("tau-bench-airline-sample.json");

describe("tau-bench import", () => {
  it("reads an array of entries as one conversation each, messages unchanged", () => {
    const result = parseConversations(sampleText);
    expect(result.format).toBe("tau-bench");
    expect(result.conversations).toHaveLength(6);
    result.conversations.forEach((conversation, index) => {
      expect(conversation.format).toBe("tau-bench");
      expect(conversation.messages).toEqual(sample[index].traj);
    });
  });

  it("titles entries by domain, task, trial and reward", () => {
    const titles = parseConversations(sampleText).conversations.map((conversation) => conversation.title);
    expect(titles).toEqual([
      "tau-bench airline task 0 (trial 0, reward 0)",
      "tau-bench airline task 12 (trial 0, reward 1)",
      "tau-bench airline task 2 (trial 1, reward 0)",
      "tau-bench airline task 41 (trial 1, reward 1)",
      "tau-bench airline task 27 (trial 2, reward 1)",
      "tau-bench airline task 44 (trial 3, reward 0)",
    ]);
  });

  it("keeps task_id, reward, trial and info as source", () => {
    const [first] = parseConversations(sampleText).conversations;
    expect(first.source).toEqual({ task_id: 0, reward: 0, trial: 0, info: sample[0].info });
  });

  it("reads a single entry object", () => {
    const result = parseConversations(JSON.stringify(sample[1]));
    expect(result.conversations).toHaveLength(1);
    expect(result.conversations[0].title).toBe("tau-bench airline task 12 (trial 0, reward 1)");
  });

  it("names the domain from the file name when the policy does not", () => {
    const entry = { task_id: 3, reward: 1, traj: [{ role: "user", content: "hi" }] };
    expect(parseConversations(JSON.stringify(entry), { filename: "gpt-4o-retail.json" }).conversations[0].title).toBe("tau-bench retail task 3 (reward 1)");
    expect(parseConversations(JSON.stringify({ traj: [{ role: "user", content: "hi" }] })).conversations[0].title).toBe("tau-bench");
  });

  it("imports trajectories that reuse a tool_call_id across turns without warnings", () => {
    const [reuse] = parseConversations(sampleText).conversations;
    const ids = reuse.messages.flatMap((message) => message.tool_calls?.map((call) => call.id) ?? []);
    expect(new Set(ids).size).toBeLessThan(ids.length);
    expect(reuse.warnings).toEqual([]);
  });

  it("reports a bad role inside the second entry with its conversation, message, path and line", () => {
    const error = importErrorOf(() => parseConversations(readFixture("import/malformed-tau-bench.json")));
    expect(error.issues).toEqual([
      {
        message: 'unknown role "agent": expected system, user, assistant or tool',
        path: "[1].traj[7].role",
        line: 223,
        column: 7,
        messageIndex: 7,
        format: "tau-bench trajectories",
        conversationIndex: 1,
      },
    ]);
    expect(error.message).toBe(
      'could not import: line 223, conversation 1, message 7 ([1].traj[7].role): unknown role "agent": expected system, user, assistant or tool [read as tau-bench trajectories]',
    );
  });

  it("reports an entry without traj at the entry", () => {
    const text = `[\n  {"traj": [{"role": "user", "content": "hi"}]},\n  {"task_id": 2, "trajectory": []}\n]`;
    const error = importErrorOf(() => parseConversations(text));
    expect(error.issues).toEqual([
      {
        message: "a tau-bench entry needs traj: an array of messages",
        path: "[1].traj",
        line: 3,
        column: 3,
        conversationIndex: 1,
        format: "tau-bench trajectories",
      },
    ]);
  });

  it("reads anything as tau-bench when the format is forced", () => {
    const error = importErrorOf(() => parseConversations(`{"messages": []}`, { format: "tau-bench" }));
    expect(error.issues.map((issue) => [issue.path, issue.message])).toEqual([["traj", "a tau-bench entry needs traj: an array of messages"]]);
  });

  it("imports all 200 trajectories into 200 valid conversations with 5,308 messages", () => {
    const text = readFileSync(TAU_BENCH_FULL, "utf8");
    const entries = JSON.parse(text) as Entry[];
    const result = parseConversations(text, { filename: "tau-bench-gpt4o-airline.json" });
    expect(result.conversations).toHaveLength(200);
    expect(result.conversations.reduce((total, conversation) => total + conversation.messages.length, 0)).toBe(5308);
    expect(result.conversations.every((conversation) => conversation.warnings.length === 0)).toBe(true);
    result.conversations.forEach((conversation, index) => expect(conversation.messages).toEqual(entries[index].traj));
    const calls = result.conversations.flatMap((conversation) => conversation.messages.flatMap((message) => message.tool_calls ?? []));
    expect(calls).toHaveLength(1164);
  });
});
