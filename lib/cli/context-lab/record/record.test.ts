// `context-lab record -- node agent.mjs` on the repository's production build: an agent written with the
// official openai and @anthropic-ai/sdk clients, configured only by the environment record gives it,
// against the fake upstream that accepts nothing but the caller's real keys.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallPage } from "@/lib/calls/types";
import { type FakeOpenAI, startFakeOpenAI } from "@/tests/support/fake-openai";
import { closedLoopbackPort } from "@/tests/support/loopback";
import { distDir, hasBuild, NO_BUILD } from "@/tests/support/next-server";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..", "..");
const OPENAI_KEY = "sk-real-openai-key-for-record-1234";
const ANTHROPIC_KEY = "sk-ant-real-key-for-record-5678";

const AGENT = `import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";

// Configured by the environment alone, as agents usually are.
const openai = new OpenAI({ maxRetries: 0 });
// A system prompt past OpenAI's 1,024-token caching minimum: the second call reads it from the cache.
const history = [{ role: "system", content: "You plan trips. ".repeat(400) }, { role: "user", content: "plan a day in Lyon" }];
const first = await openai.chat.completions.create({ model: "gpt-4o-mini", messages: history });
history.push(first.choices[0].message, { role: "user", content: "and the evening?" });
const second = await openai.chat.completions.create({ model: "gpt-4o-mini", messages: history });
const anthropic = new Anthropic({ maxRetries: 0 });
const review = await anthropic.messages.create({ model: "claude-haiku-4-5", max_tokens: 64, system: "You review plans.", messages: [{ role: "user", content: "review it" }] });
console.log(JSON.stringify({ plan: second.choices[0].message.content, review: review.content[0].text }));
process.exit(Number(process.env.AGENT_EXIT ?? 0));
`;

interface RecordRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe("context-lab record", () => {
  let work: string;
  let upstream: FakeOpenAI;
  let port: number;
  let env: NodeJS.ProcessEnv;

  function cli(args: string[], extra: Record<string, string> = {}): Promise<RecordRun> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "lib", "cli", "context-lab", "main.ts"), ...args], {
        cwd: ROOT,
        env: { ...env, ...extra },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.once("exit", (code) => resolve({ code, stdout, stderr }));
    });
  }

  async function api<T>(route: string): Promise<T> {
    const response = await fetch(`http://127.0.0.1:${port}${route}`);
    expect(response.status, route).toBe(200);
    return (await response.json()) as T;
  }

  beforeAll(async () => {
    // The command starts the production build: without one this fails, naming how to make it.
    if (!hasBuild()) throw new Error(NO_BUILD);
    work = fs.mkdtempSync(path.join(os.tmpdir(), "context-lab-record-"));
    // The agent's project: its script beside a node_modules holding the official clients.
    fs.writeFileSync(path.join(work, "agent.mjs"), AGENT);
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(work, "node_modules"));
    upstream = await startFakeOpenAI({ apiKey: OPENAI_KEY, anthropicApiKey: ANTHROPIC_KEY, promptCache: { now: () => Date.now() } });
    port = await closedLoopbackPort();
    env = { ...process.env, CONTEXT_LAB_HOME: path.join(work, "home"), NEXT_DIST_DIR: distDir, PORT: String(port) };
    for (const name of ["DATABASE_URL", "CONTEXT_LAB_TOKEN", "HOST", "CONTEXT_LAB_UPSTREAM_SETTINGS_FILE", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_BASE"])
      delete env[name];
    for (const name of Object.keys(env)) if (name.startsWith("CONTEXT_LAB_UPSTREAM") || name.startsWith("CONTEXT_LAB_ANTHROPIC")) delete env[name];
    Object.assign(env, {
      OPENAI_API_KEY: OPENAI_KEY,
      OPENAI_BASE_URL: upstream.baseUrl,
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      ANTHROPIC_BASE_URL: upstream.anthropicBaseUrl,
    });
  });

  afterAll(async () => {
    // The app record started in the background, if a test failed before stopping it.
    await cli(["stop"]);
    await upstream?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("[PK-7] [PK-8] [PK-9] [PK-10] [PK-11] starts the app, records the agent's calls under its label with the real keys upstream, prints the URL first and the summary last, and exits with the agent's code", async () => {
    const run = await cli(["record", "--", "node", path.join(work, "agent.mjs")], { AGENT_EXIT: "3" });
    expect(run.code, run.stderr).toBe(3);
    expect(JSON.parse(run.stdout)).toEqual({ plan: "echo: and the evening?", review: "echo: review it" });
    const url = `http://127.0.0.1:${port}`;
    expect(run.stderr).toContain(`starting Context Lab in the background at ${url}`);

    // The upstream saw the caller's keys, never the label key the agent was given.
    const models = upstream.requests.filter((request) => request.method === "POST");
    expect(models.map((request) => request.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions", "/v1/messages"]);
    expect(models.slice(0, 2).map((request) => request.headers.authorization)).toEqual([`Bearer ${OPENAI_KEY}`, `Bearer ${OPENAI_KEY}`]);
    expect(models[2].headers["x-api-key"]).toBe(ANTHROPIC_KEY);

    // Two conversations under the label "agent": the planner's, and the reviewer's, which opens with another question (P-S3).
    const { conversations } = await api<{ conversations: { id: string; recordKey: string | null }[] }>("/api/conversations");
    const recorded = conversations.filter((conversation) => conversation.recordKey === "agent" || conversation.recordKey?.startsWith("agent#"));
    expect(recorded.map((conversation) => conversation.recordKey).sort()).toEqual(["agent", expect.stringMatching(/^agent#[0-9a-f]{8}$/)]);
    const planner = recorded.find((conversation) => conversation.recordKey === "agent");
    const reviewer = recorded.find((conversation) => conversation.recordKey !== "agent");
    const plannerCalls = await api<CallPage>(`/api/conversations/${planner?.id}/calls`);
    const reviewerCalls = await api<CallPage>(`/api/conversations/${reviewer?.id}/calls`);
    expect(plannerCalls.calls.map((call) => [call.protocol, call.outcome])).toEqual([
      ["openai-chat", "ok"],
      ["openai-chat", "ok"],
    ]);
    expect(reviewerCalls.calls.map((call) => [call.protocol, call.outcome])).toEqual([["anthropic", "ok"]]);

    // Each conversation's URL as its first call arrived, before the agent's exit and the summary.
    const lines = run.stderr.split("\n");
    const announced = (id: string | undefined) => lines.findIndex((line) => line.endsWith(`→ ${url}/c/${id}`));
    const summary = lines.findIndex((line) => line.startsWith('context-lab record: "agent" made 3 calls; the command exited with 3'));
    expect(announced(planner?.id)).toBeGreaterThan(-1);
    expect(announced(reviewer?.id)).toBeGreaterThan(-1);
    expect(summary).toBeGreaterThan(Math.max(announced(planner?.id), announced(reviewer?.id)));
    const calls = [...plannerCalls.calls, ...reviewerCalls.calls];
    const inputTokens = calls.reduce((sum, call) => sum + (call.usage?.input ?? 0), 0);
    const outputTokens = calls.reduce((sum, call) => sum + (call.usage?.output ?? 0), 0);
    const cachedTokens = calls.reduce((sum, call) => sum + (call.usage?.cached ?? 0), 0);
    expect(cachedTokens).toBeGreaterThan(0);
    expect(lines.slice(summary + 1, summary + 7)).toEqual([
      `  ${url}/c/${planner?.id}  2 calls  (agent)`,
      `  ${url}/c/${reviewer?.id}  1 call  (${reviewer?.recordKey})`,
      "  calls        3: 3 ok, 0 failed",
      `  tokens       ${inputTokens.toLocaleString("en-US")} in, ${outputTokens.toLocaleString("en-US")} out`,
      `  cache hits   ${((100 * cachedTokens) / inputTokens).toFixed(1)}% of input tokens (${cachedTokens.toLocaleString("en-US")} read from the cache)`,
      expect.stringMatching(/^ {2}cost {9}\$\d+\.\d{4}$/),
    ]);
    expect(lines[summary + 7]).toBe(`context-lab: the app keeps running at ${url}; context-lab stop ends it`);
  }, 240_000);

  it("[PK-8] [PK-11] uses the app already running on the port, and sums up only this run's calls under --label", async () => {
    const run = await cli(["record", "--label", "second run", "--", "node", path.join(work, "agent.mjs")]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("starting Context Lab");
    expect(run.stderr).toContain('context-lab record: "second-run" made 3 calls; the command exited with 0');
    const { conversations } = await api<{ conversations: { recordKey: string | null }[] }>("/api/conversations");
    expect(conversations.filter((conversation) => conversation.recordKey?.startsWith("second-run"))).toHaveLength(2);

    const stopped = await cli(["stop"]);
    expect(stopped.stdout).toBe(`context-lab: stopped the app at http://127.0.0.1:${port}\n`);
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
  }, 240_000);
});
