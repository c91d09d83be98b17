import { describe, expect, it } from "vitest";
import { buildStateTree, countOrigins } from "./state-model";
import { RETRY_STATE, RUN_CONTEXTS } from "./test-state";

describe("buildStateTree", () => {
  it("nests the lineage root first, with the live contexts under the current branch", () => {
    const [main] = buildStateTree(RETRY_STATE, RUN_CONTEXTS);
    expect(main.label).toBe("main");
    const [retry] = main.children;
    expect(retry).toMatchObject({ label: "retry", current: true, note: "forked at message 17; 30 messages" });
    expect(retry.children.map((node) => node.label)).toEqual(["conversation"]);
    expect(retry.children[0].children.map((node) => node.label)).toEqual(["run 3"]);
    expect(main.note).toBe("root branch; retry sees it before message 17");
  });

  it("marks an ancestor's rows own where written and inherited on the current branch", () => {
    const [main] = buildStateTree(RETRY_STATE);
    expect(main.entries.map((entry) => [entry.key, entry.origin, entry.summary])).toEqual([
      ["summaries", "own", "1 summary"],
      ["checkpoints", "own", "1 checkpoint"],
      ["offloaded", "own", "1 handle"],
    ]);
    const retry = main.children[0];
    expect(retry.entries.map((entry) => [entry.key, entry.origin, entry.summary])).toEqual([
      ["summaries", "own", "1 summary"],
      ["summaries", "inherited", "1 summary from main"],
      ["checkpoints", "shadows", "1 checkpoint; the latest shadows 1 inherited one"],
      ["checkpoints", "inherited", "1 checkpoint from main"],
      ["offloaded", "inherited", "1 handle from main"],
      ["artifacts", "own", "1 artifact"],
    ]);
    expect(retry.entries[1].items).toEqual([{ id: "s1", label: "messages 0–11 · 80 tokens (from main)" }]);
  });

  it("maps the worker's local, shadows and inherited keys", () => {
    const [conversation] = buildStateTree(null, RUN_CONTEXTS);
    const run = conversation.children[0];
    expect(run.entries.map((entry) => [entry.key, entry.origin])).toEqual([
      ["history", "shadows"],
      ["offloaded_messages", "own"],
      ["title", "inherited"],
    ]);
  });

  it("counts entries by origin", () => {
    expect(countOrigins(buildStateTree(RETRY_STATE, RUN_CONTEXTS))).toEqual({ own: 8, inherited: 4, shadows: 2 });
  });

  it("is empty with neither part", () => {
    expect(buildStateTree(null, [])).toEqual([]);
  });
});
