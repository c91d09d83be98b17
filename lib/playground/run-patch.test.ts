import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context";
import { PipelineHost } from "./pipeline-host";
import type { RunResult } from "./protocol";
import { RunDecoder, RunEncoder } from "./run-patch";
import { resolveSettings, settingsForMode, type Settings } from "@/lib/settings";

const input = (settings: Settings) => ({ settings: resolveSettings(settings) });

const sample = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "..", "tests", "fixtures", "tau-bench-airline-sample.json"), "utf8")) as {
  traj: Message[];
}[];
const long = sample.flatMap((entry) => entry.traj.filter((message) => message.role !== "system"));

/** What crossing to the page does to a result: a structured clone (the typed arrays are transferred). */
const post = <T>(value: T): T => structuredClone(value);

describe("RunEncoder and RunDecoder", () => {
  it("hand the page the same results the host made, run after run", async () => {
    const host = new PipelineHost();
    host.load("t", long);
    const encoder = new RunEncoder();
    const decoder = new RunDecoder();
    const settings = settingsForMode("navigator", { maxMessageSize: 400 });
    for (const change of [{}, { historyRounds: 3 }, { historyRounds: 3 }, { tokenBudget: 2_000 }, { historyRounds: 40 }, { mode: "pilot" as const }]) {
      const result = await host.run(input({ ...settings, ...change }));
      const { wire } = encoder.encode(result);
      expect(decoder.decode(post(wire))).toEqual(post(result));
    }
  });

  it("send all of the first result, then only the messages whose fate changed, and no history when it is the same", async () => {
    const host = new PipelineHost();
    host.load("t", long);
    const encoder = new RunEncoder();
    const settings = settingsForMode("copilot");
    const first = encoder.encode(await host.run(input({ ...settings, historyRounds: 6 }))).wire;
    expect(first.base).toBeNull();
    expect(first.changed).toHaveLength(long.length);
    const same = encoder.encode(await host.run(input({ ...settings, historyRounds: 6 }))).wire;
    expect(same.base).toBe(first.revision);
    expect(same.changed).toHaveLength(0);
    expect(same.history).toBeUndefined();
    expect(same.tokens).toBeUndefined();
    const fewer = encoder.encode(await host.run(input({ ...settings, historyRounds: 5 }))).wire;
    expect(fewer.changed.length).toBeGreaterThan(0);
    expect(fewer.changed.length).toBeLessThan(long.length / 2);
    expect(fewer.history).toBeDefined();
  });

  it("starts over with another conversation, and a decoder refuses changes to a result it never saw", async () => {
    const host = new PipelineHost();
    const encoder = new RunEncoder();
    host.load("t", long);
    const first = encoder.encode(await host.run(input(settingsForMode("copilot")))).wire;
    host.load("t", sample[0].traj);
    encoder.reset();
    const other = encoder.encode(await host.run(input(settingsForMode("copilot")))).wire;
    expect(other.base).toBeNull();
    expect(other.length).toBe(sample[0].traj.length);
    const next = encoder.encode(await host.run(input(settingsForMode("navigator")))).wire;
    const decoder = new RunDecoder();
    decoder.decode(post(first));
    expect(() => decoder.decode(post(next))).toThrow(/does not hold/);
  });

  it("gives every result its own arrays, as a posted result always had", async () => {
    const host = new PipelineHost();
    // Counted as the runs count, so neither run brings a recount of its own.
    host.load("t", long, undefined, input(settingsForMode("copilot")).settings.policy.encoding);
    const encoder = new RunEncoder();
    const decoder = new RunDecoder();
    const results: RunResult[] = [];
    for (let index = 0; index < 2; index += 1) results.push(decoder.decode(post(encoder.encode(await host.run(input(settingsForMode("copilot")))).wire)));
    expect(results[1].history).not.toBe(results[0].history);
    expect(results[1].kept).not.toBe(results[0].kept);
    expect(results[1].marks).not.toBe(results[0].marks);
    expect(results[1]).toEqual({
      ...results[0],
      revision: results[1].revision,
      totalMs: results[1].totalMs,
      steps: results[1].steps,
      contexts: results[1].contexts,
    });
  });
});
