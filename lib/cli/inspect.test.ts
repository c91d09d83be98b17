import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hasIntactToolPairs, type Message } from "@/lib/context";
import { parseInspectArguments, runInspect, UsageError } from "./inspect";

const fixtures = path.join(import.meta.dirname, "..", "..", "tests", "fixtures");
const sample = path.join(fixtures, "tau-bench-airline-sample.json");

function capture(stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text), readStdin: () => stdin } };
}

describe("npm run inspect", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "inspect-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("prints one trace row per processor with messages and tokens before → after, and writes the processed history", async () => {
    const out = path.join(dir, "processed.json");
    const run = capture();
    const code = await runInspect([sample, "--mode", "navigator", "--budget", "3000", "--model", "gpt-4o", "--out", out], run.io);
    expect(code).toBe(0);
    const text = run.out.join("\n");
    expect(text).toContain("navigator · gpt-4o · o200k_base · budget 3,000");
    for (const processor of ["message_offloader", "dialogue_compressor", "round_window", "summarize", "token_budget"]) {
      expect(text).toMatch(new RegExp(`^${processor}\\s+\\d[\\d,]* → \\d[\\d,]*\\s+[\\d,]+ → [\\d,]+`, "m"));
    }
    const written = JSON.parse(fs.readFileSync(out, "utf8")) as Message[];
    expect(hasIntactToolPairs(written)).toBe(true);
    expect(text).toContain(`wrote ${written.length} messages`);
  });

  it("reports the deterministic over-budget result when even the smallest history does not fit", async () => {
    const run = capture();
    await runInspect([sample, "--budget", "50", "--out", path.join(dir, "o.json")], run.io);
    expect(run.out.join("\n")).toMatch(/over budget: the request needs \d+ tokens, \d+ over the token budget of 50, .*; nothing would be sent/);
  });

  it("reads a conversation from stdin with '-'", async () => {
    const messages = [{ role: "user", content: "Where is my bag?" }];
    const run = capture(JSON.stringify(messages));
    const code = await runInspect(["-", "--out", path.join(dir, "stdin.json")], run.io);
    expect(code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "stdin.json"), "utf8"))).toEqual(messages);
  });

  it("names the message index and field of bad input and exits 1", async () => {
    const run = capture();
    const code = await runInspect([path.join(fixtures, "import", "malformed-messages.json"), "--out", path.join(dir, "x.json")], run.io);
    expect(code).toBe(1);
    expect(run.err.join("\n")).toMatch(/message 7 \(messages\[7\]\.tool_call_id\)/);
    expect(fs.existsSync(path.join(dir, "x.json"))).toBe(false);
  });

  it("gives the line and column of a JSON syntax error", async () => {
    const run = capture();
    const code = await runInspect([path.join(fixtures, "import", "malformed-missing-comma.json")], run.io);
    expect(code).toBe(1);
    expect(run.err.join("\n")).toMatch(/line \d+, column \d+/);
  });

  it("exits 2 with the usage for a missing file, an unknown option or a bad number", async () => {
    for (const argv of [[path.join(dir, "missing.json")], [sample, "--fast"], [sample, "--budget", "lots"], [sample, "--conversation", "99"]]) {
      const run = capture();
      expect(await runInspect(argv, run.io)).toBe(2);
      expect(run.err.join("\n")).toContain("usage: npm run inspect");
    }
  });

  it("parses every option", () => {
    expect(
      parseInspectArguments([
        "c.json",
        "--mode",
        "pilot",
        "--context-window",
        "128000",
        "--max-output",
        "4096",
        "--max-message-size",
        "500",
        "--conversation",
        "2",
        "--json",
      ]),
    ).toEqual({
      file: "c.json",
      mode: "pilot",
      contextWindow: 128000,
      maxOutput: 4096,
      maxMessageSize: 500,
      conversation: 2,
      json: true,
    });
    expect(() => parseInspectArguments(["--mode", "autopilot", "c.json"])).toThrow(UsageError);
  });
});
