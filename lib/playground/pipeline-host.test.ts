import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hasIntactToolPairs, sharedCounter, type Message } from "@/lib/context";
import type { MessageRecord } from "@/lib/db";
import { parsePasted } from "./parse";
import { PipelineHost } from "./pipeline-host";
import { resolveSettings, settingsForMode, type Settings } from "@/lib/settings";

const input = (settings: Settings, userTurn?: string) => ({ settings: resolveSettings(settings), ...(userTurn ? { userTurn } : {}) });

const sample = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "..", "tests", "fixtures", "tau-bench-airline-sample.json"), "utf8")) as {
  traj: Message[];
}[];

describe("PipelineHost (the playground's worker)", () => {
  it("parses pasted text, runs the pipeline and reports one step per enabled processor", async () => {
    const host = new PipelineHost();
    const loaded = parsePasted(host, JSON.stringify(sample[0].traj));
    expect(loaded.messages).toHaveLength(sample[0].traj.length);
    expect(loaded.tokens.every((count) => count > 0)).toBe(true);
    const result = await host.run(input({ ...settingsForMode("navigator"), tokenBudget: 3_000 }));
    expect(result.steps.map((step) => step.processor)).toEqual(["message_offloader", "dialogue_compressor", "round_window", "summarize", "token_budget"]);
    expect(hasIntactToolPairs(result.history)).toBe(true);
    expect(result.tokens).toHaveLength(result.history.length);
    expect(result.request.verdict.tokens.total).toBeLessThanOrEqual(result.request.verdict.limit);
  });

  it("counts what it loads with the encoding asked for (cl100k_base unless told), stored records as well", async () => {
    const host = new PipelineHost();
    const stored: MessageRecord[] = sample[1].traj.map((message, position) => ({
      id: `m${position}`,
      branchId: "b1",
      position,
      tokens: 1,
      createdAt: "2025-01-01T00:00:00.000Z",
      metadata: null,
      message,
    }));
    const opened = host.loadStored("t", stored, undefined, "o200k_base");
    expect(opened.records).toBe(stored);
    expect(opened.conversation.messages).toHaveLength(stored.length);
    expect(opened.conversation.tokens).toEqual(sharedCounter("o200k_base").countEach(opened.conversation.messages));
    const loaded = host.load("t", sample[0].traj);
    expect(loaded.tokens).toEqual(sharedCounter("cl100k_base").countEach(loaded.messages));
    expect(loaded.tokens).not.toEqual(sharedCounter("o200k_base").countEach(loaded.messages));
  });

  it("[CT1] recounts the loaded messages once, with the run that first counts by another encoding", async () => {
    const host = new PipelineHost();
    const loaded = host.load("t", sample[0].traj);
    const copilot = settingsForMode("copilot");
    const same = await host.run(input({ ...copilot, encoding: "cl100k_base" }));
    expect(same.loadedTokens).toBeUndefined();
    const other = await host.run(input({ ...copilot, encoding: "o200k_base" }));
    expect(other.loadedTokens).toEqual(sharedCounter("o200k_base").countEach(loaded.messages));
    expect(other.loadedTokens).not.toEqual(loaded.tokens);
    const again = await host.run(input({ ...copilot, encoding: "o200k_base" }));
    expect(again.loadedTokens).toBeUndefined();
    const back = await host.run(input({ ...copilot, encoding: "cl100k_base" }));
    expect(back.loadedTokens).toEqual(loaded.tokens);
  });

  it("leaves disabled processors out and keeps the spec's order", async () => {
    const host = new PipelineHost();
    host.load("t", sample[1].traj);
    const settings = settingsForMode("copilot");
    const processors = [...settings.processors].reverse().map((entry) => ({ ...entry, enabled: entry.enabled && entry.kind !== "summarize" }));
    const result = await host.run(input({ ...settings, processors }));
    expect(result.steps.map((step) => step.processor)).toEqual(["token_budget", "round_window", "dialogue_compressor", "message_offloader"]);
  });

  it("follows each loaded message to where it ends up and marks what was done to it", async () => {
    const host = new PipelineHost();
    const loaded = host.load("t", sample[0].traj);
    const result = await host.run(input({ ...settingsForMode("navigator"), maxMessageSize: 400 }));
    loaded.messages.forEach((message, index) => {
      const at = result.kept[index];
      if (at >= 0 && result.marks[index].length === 0) expect(result.history[at]).toBe(message);
      if (at < 0) expect(result.marks[index].length).toBeGreaterThan(0);
    });
    const offloaded = result.offloaded[0];
    expect(offloaded).toBeDefined();
    expect(result.marks[offloaded.origin].some((mark) => mark.kind === "offloaded" && mark.handle === offloaded.handle)).toBe(true);
    expect(await host.reload(offloaded.handle)).toBe(loaded.messages[offloaded.origin].content);
  });

  it("returns the histories a step received and returned", async () => {
    const host = new PipelineHost();
    host.load("t", sample[0].traj);
    const result = await host.run(input(settingsForMode("navigator")));
    const compressor = result.steps.findIndex((step) => step.processor === "dialogue_compressor");
    const { before, after } = host.stepHistories(compressor);
    expect(before).toHaveLength(result.steps[compressor].messagesBefore);
    expect(after).toHaveLength(result.steps[compressor].messagesAfter);
    expect(() => host.stepHistories(99)).toThrow(/no step 99/);
  });

  it("counts texts with the last run's encoding, and refuses before a run", async () => {
    const host = new PipelineHost();
    host.load("task", sample[0].traj);
    expect(() => host.countTexts(["a"])).toThrow(/run the pipeline before counting/);
    const run = input(settingsForMode("navigator"));
    await host.run(run);
    const text = "The offloaded flight search results for HAT170 and HAT171.";
    expect(host.countTexts([text, ""])).toEqual([sharedCounter(run.settings.policy.encoding).countText(text), 0]);
  });

  it("refuses to run or reload before a conversation is loaded, and reloading an unknown handle", async () => {
    const host = new PipelineHost();
    await expect(host.run(input(settingsForMode("copilot")))).rejects.toThrow(/no conversation loaded/);
    host.load("t", sample[0].traj);
    await host.run(input(settingsForMode("copilot")));
    await expect(host.reload("off_000000000000")).rejects.toThrow(/unknown offload handle/);
  });
});

describe("PipelineHost with a live agent mid-turn", () => {
  it("keeps a tool call still waiting for its result at the end, through the pipeline", async () => {
    const host = new PipelineHost();
    const pending: Message = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_live", type: "function", function: { name: "get_user_details", arguments: "{}" } }],
    };
    const loaded = host.load("t", [...sample[0].traj, { role: "user", content: "and my reservation?" }, pending]);
    expect(loaded.repairs).toEqual([]);
    expect(loaded.messages.at(-1)).toBe(pending);
    const result = await host.run(input({ ...settingsForMode("navigator"), tokenBudget: 2_000 }));
    expect(result.history.at(-1)).toBe(pending);
  });
});

describe("PipelineHost context tree", () => {
  it("shows the run as a fork of the conversation: inherited tools, own pipeline keys, history shadowing the raw one", async () => {
    const host = new PipelineHost();
    host.load("t", sample[0].traj, [{ type: "function", function: { name: "get_user_details", parameters: { type: "object", properties: {} } } }]);
    const result = await host.run(input({ ...settingsForMode("navigator"), tokenBudget: 2_000 }));
    const [root, run] = result.contexts;
    expect(root.taskId).toBe("conversation");
    expect(run.parent).toBe("conversation");
    const entry = (key: string) => run.entries.find((candidate) => candidate.key === key);
    expect(entry("tools")).toMatchObject({ local: false, shadows: false });
    expect(entry("history")).toMatchObject({ local: true, shadows: true, summary: `${result.history.length} messages` });
    expect(entry("token_budget_trimmed")?.local).toBe(true);
    expect(root.entries.find((candidate) => candidate.key === "token_budget_trimmed")).toBeUndefined();
  });
});

describe("PipelineHost builds what the server builds", () => {
  const stored = (messages: Message[]): MessageRecord[] =>
    messages.map((message, position) => ({
      id: `m${position}`,
      branchId: "b1",
      position,
      tokens: 1,
      createdAt: "2025-01-01T00:00:00.000Z",
      metadata: null,
      message,
    }));

  it("[E-RB1] sends the covered system messages and the persisted summary in place of the messages it covers, and marks them", async () => {
    const host = new PipelineHost();
    const messages = sample[0].traj;
    const coveredUntil = 6;
    host.loadStored("t", stored(messages), undefined, "o200k_base", {
      branchId: "b1",
      coveredUntil,
      system: messages.slice(0, coveredUntil).filter((message) => message.role === "system"),
      chain: [{ id: "s1", branchId: "b1", fromPosition: 0, toPosition: coveredUntil, text: "The user asked to change a flight." }],
      checkpoint: { id: "c1", version: 1 },
      artifacts: [],
    });
    const off = settingsForMode("pilot").processors.map((entry) => ({ ...entry, enabled: false }));
    const result = await host.run(input({ ...settingsForMode("pilot"), processors: off }));
    const systemCount = messages.slice(0, coveredUntil).filter((message) => message.role === "system").length;
    expect(result.history.slice(0, systemCount)).toEqual(messages.slice(0, coveredUntil).filter((message) => message.role === "system"));
    expect(result.history[systemCount]).toMatchObject({ role: "system", engine: { kind: "conversation-summary" } });
    expect(result.history.slice(systemCount + 1)).toEqual(messages.slice(coveredUntil));
    expect(result.request.sections.map((section) => section.kind)).toEqual(["system", "summary", "recent"]);
    expect(result.request.sections[1].label).toBe("Checkpoint v1 (summary of messages 0–5)");
    messages.slice(0, coveredUntil).forEach((message, index) => {
      if (message.role === "system") return;
      expect(result.kept[index]).toBe(-1);
      expect(result.marks[index]).toEqual([{ processor: "persisted summary", kind: "summarised" }]);
    });
  });

  it("[CT5][E-RB1] a covered system prompt read apart (the memory's copy, as a recorded branch's snapshot brings it) is followed to where it is sent", async () => {
    const host = new PipelineHost();
    const messages = sample[0].traj;
    const coveredUntil = 6;
    const systemAt = messages.findIndex((message) => message.role === "system");
    expect(systemAt).toBeGreaterThanOrEqual(0);
    expect(systemAt).toBeLessThan(coveredUntil);
    host.loadStored("t", stored(messages), undefined, "o200k_base", {
      branchId: "b1",
      coveredUntil,
      // Parsed from its own response: equal to the stored messages, not the same objects.
      system: structuredClone(messages.slice(0, coveredUntil).filter((message) => message.role === "system")),
      chain: [{ id: "s1", branchId: "b1", fromPosition: 0, toPosition: coveredUntil, text: "The user asked to change a flight." }],
      checkpoint: { id: "c1", version: 1 },
      artifacts: [],
    });
    const off = settingsForMode("pilot").processors.map((entry) => ({ ...entry, enabled: false }));
    const result = await host.run(input({ ...settingsForMode("pilot"), processors: off }));
    expect(result.kept[systemAt]).toBe(0);
    expect(result.history[0]).toBe(messages[systemAt]);
    expect(result.marks[systemAt]).toEqual([]);
  });

  it("[E-RB1] a typed next turn is sent last as the current turn, and the same text keeps the same message", async () => {
    const host = new PipelineHost();
    host.load("t", sample[1].traj);
    const first = await host.run(input(settingsForMode("copilot"), "and my refund?"));
    expect(first.history.at(-1)).toEqual({ role: "user", content: "and my refund?" });
    expect(first.request.sections.at(-1)).toMatchObject({ kind: "current", label: "Current turn" });
    const second = await host.run(input(settingsForMode("copilot"), "and my refund?"));
    expect(second.history.at(-1)).toBe(first.history.at(-1));
  });
});
