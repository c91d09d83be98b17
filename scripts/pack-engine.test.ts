// The packed engine in an empty project: installed from its tarball offline, a
// policySnippet compiled with tsc and run, giving the in-repo engine's request.
// History: a tau-bench GPT-4o airline trajectory (sierra-research/tau-bench, MIT;
// see lib/context/test-support/tau-bench.ts).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildRequest, callPoints, policySnippet, presetPolicy, PROCESSOR_KINDS, type Message, type RequestPolicy, type ToolDefinition } from "@/lib/context";
import { sampleTrajectories } from "@/lib/context/test-support/tau-bench";
import { contextPolicyMessagesRequest } from "@/lib/adapters/anthropic";
import { ADAPTER_NAMES } from "@/lib/adapters/entries";
import { contextPolicyChatRequest } from "@/lib/adapters/openai";
import { writeAnthropicRequest, writeChatRequest } from "@/lib/formats";
import { packEngine } from "./pack-engine";

const ROOT = path.join(import.meta.dirname, "..");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "engine-pack-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const trajectory = [...sampleTrajectories()].sort((a, b) => b.messages.length - a.messages.length)[0].messages;
const history: Message[] = trajectory.slice(0, callPoints(trajectory).at(-1));
const tools: ToolDefinition[] = [
  {
    type: "function",
    function: {
      name: "get_reservation_details",
      description: "Get the details of a reservation.",
      parameters: { type: "object", properties: { reservation_id: { type: "string" } } },
    },
  },
];

/** Every strategy at work at once: masking, clearing with inputs, a token window, and the navigator's pipeline. */
const policy: RequestPolicy = {
  ...presetPolicy("navigator", { model: "gpt-4o", encoding: "o200k_base", contextWindow: 6_000, maxOutputTokens: 1_000 }),
  processors: PROCESSOR_KINDS.filter((kind) => kind !== "tool_result_offloader" && kind !== "auto_compact").map((kind) => ({ kind, enabled: true })),
  maxMessageSize: 600,
  offloadThreshold: 4,
  tuning: {
    observation_masking: { keepObservations: 2 },
    clear_tool_uses: { triggerTokens: 1_000, keepToolUses: 1, clearToolInputs: true },
    token_window: { maxTokens: 4_000 },
  },
};

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

describe("npm run pack:engine", () => {
  it("[E-RP11] installs offline into an empty project, where the generated policy snippet compiles under strict and builds the same request as the in-repo engine", async () => {
    const { directory, tarball } = await packEngine({ outDir: path.join(work, "dist") });
    const manifest = JSON.parse(fs.readFileSync(path.join(directory, "package.json"), "utf8"));
    expect(manifest).toMatchObject({
      name: "@context-lab/engine",
      type: "module",
      exports: { ".": { types: "./types/context/index.d.ts", import: "./index.js" } },
    });
    expect(manifest.dependencies).toBeUndefined();
    // No Next, no Prisma, no Node built-ins in what ships (E-I1).
    const files = fs.readdirSync(directory).filter((file) => file.endsWith(".js"));
    const shipped = files.map((file) => fs.readFileSync(path.join(directory, file), "utf8")).join("\n");
    expect(shipped).not.toMatch(/from ["'](next|@prisma\/client|node:[a-z]+)["']/);

    const project = path.join(work, "project");
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball], project);
    expect(fs.existsSync(path.join(project, "node_modules", "@context-lab", "engine", "index.js"))).toBe(true);

    fs.writeFileSync(path.join(project, "policy.ts"), policySnippet(policy));
    fs.writeFileSync(path.join(project, "history.json"), JSON.stringify({ history, tools }));
    fs.writeFileSync(
      path.join(project, "main.ts"),
      `import { readFileSync } from "node:fs";
import type { Message, ToolDefinition } from "@context-lab/engine";
import { prepareRequest } from "./policy.js";

const { history, tools } = JSON.parse(readFileSync(new URL("../history.json", import.meta.url), "utf8")) as { history: Message[]; tools: ToolDefinition[] };
const request = await prepareRequest(history, tools);
process.stdout.write(JSON.stringify({ messages: request.messages, tools: request.tools, tokens: request.verdict.tokens, steps: request.trace.steps.map((step) => step.processor) }));
`,
    );
    fs.writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2023", "DOM"],
          types: ["node"],
          typeRoots: [path.join(ROOT, "node_modules", "@types")],
          skipLibCheck: false,
          outDir: "out",
        },
        files: ["policy.ts", "main.ts"],
      }),
    );
    run(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], project);
    const packed = JSON.parse(run(process.execPath, [path.join("out", "main.js")], project));

    const expected = await buildRequest({ history, tools, policy });
    expect(packed.steps).toEqual([
      "message_offloader",
      "dialogue_compressor",
      "round_window",
      "summarize",
      "token_budget",
      "clear_tool_uses",
      "observation_masking",
      "token_window",
    ]);
    expect(packed.steps).toEqual(expected.trace.steps.map((step) => step.processor));
    expect(packed.messages).toEqual(JSON.parse(JSON.stringify(expected.messages)));
    expect(packed.tools).toEqual(JSON.parse(JSON.stringify(expected.tools)));
    expect(packed.tokens).toEqual(expected.verdict.tokens);
    // The policy did something: the request is not the history.
    expect(expected.messages.length).toBeLessThan(history.length);
  }, 180_000);

  it("[AD-7] ships each adapter as a subpath; only LangChain's needs its framework installed, and the SDK adapters give the in-repo request", async () => {
    const { directory, tarball } = await packEngine({ outDir: path.join(work, "adapters-dist") });
    const manifest = JSON.parse(fs.readFileSync(path.join(directory, "package.json"), "utf8"));
    const adapters = ADAPTER_NAMES;
    for (const name of adapters) {
      expect(manifest.exports[`./${name}`]).toEqual({ types: `./types/adapters/${name}.d.ts`, import: `./${name}.js` });
      expect(fs.existsSync(path.join(directory, "types", "adapters", `${name}.d.ts`))).toBe(true);
    }
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(["@langchain/core", "@mastra/core", "@openai/agents", "ai", "langchain"]);
    expect(Object.values(manifest.peerDependenciesMeta)).toEqual(Array.from({ length: 5 }, () => ({ optional: true })));
    // No framework is bundled: LangChain's entry imports it, no other file names one.
    const frameworksOf = (file: string) => [
      ...new Set(
        [
          ...fs.readFileSync(path.join(directory, file), "utf8").matchAll(/from ["'](ai|langchain|@langchain\/[^"']+|@openai\/agents|@mastra\/[^"']+)["']/g),
        ].map((match) => match[1]),
      ),
    ];
    const importers = fs.readdirSync(directory).filter((file) => file.endsWith(".js") && frameworksOf(file).length > 0);
    expect(importers).toEqual(["langchain.js"]);
    // The runnable's @langchain/core and the agent middleware's langchain, imported, not bundled.
    expect(frameworksOf("langchain.js").sort()).toEqual([
      "@langchain/core/messages",
      "@langchain/core/runnables",
      "@langchain/core/utils/function_calling",
      "langchain",
    ]);
    expect(fs.readdirSync(path.join(directory, "types"), { recursive: true }).filter((file) => /\.d\.ts$/.test(String(file))).length).toBeGreaterThan(20);
    expect(
      fs
        .readdirSync(path.join(directory, "types"), { recursive: true })
        .map((file) => path.join(directory, "types", String(file)))
        .filter((file) => file.endsWith(".d.ts") && fs.readFileSync(file, "utf8").includes('"@/')),
    ).toEqual([]);

    const project = path.join(work, "adapters-project");
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball], project);
    const chat = { model: "gpt-4o", ...(writeChatRequest({ messages: history, tools }).value as { messages: object[] }) };
    const anthropic = {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      ...(writeAnthropicRequest({ messages: history, tools }).value as { messages: object[] }),
    };
    // The window of a model the request fits, the strategies' own limits still at work.
    const roomy: RequestPolicy = { ...policy, contextWindow: 64_000, maxOutputTokens: 4_000 };
    fs.writeFileSync(path.join(project, "input.json"), JSON.stringify({ policy: roomy, chat, anthropic }));
    fs.writeFileSync(
      path.join(project, "adapters.mjs"),
      `import { readFileSync } from "node:fs";
import { contextPolicyChatRequest } from "@context-lab/engine/openai";
import { contextPolicyMessagesRequest } from "@context-lab/engine/anthropic";
const { policy, chat, anthropic } = JSON.parse(readFileSync("input.json", "utf8"));
const loaded = {};
for (const name of ${JSON.stringify(adapters)}) {
  try {
    loaded[name] = Object.keys(await import("@context-lab/engine/" + name)).sort();
  } catch (error) {
    loaded[name] = error.code;
  }
}
const result = { chat: await contextPolicyChatRequest(policy)(chat), anthropic: await contextPolicyMessagesRequest(policy)(anthropic), loaded };
process.stdout.write(JSON.stringify(result));
`,
    );
    const packed = JSON.parse(run(process.execPath, ["adapters.mjs"], project));
    expect(packed.chat).toEqual(JSON.parse(JSON.stringify(await contextPolicyChatRequest(roomy)(chat))));
    expect(packed.anthropic).toEqual(JSON.parse(JSON.stringify(await contextPolicyMessagesRequest(roomy)(anthropic))));
    expect(packed.chat.messages.length).toBeLessThan(chat.messages.length);
    expect(packed.loaded).toEqual({
      "ai-sdk": ["contextPolicyMiddleware", "contextPolicyPrepareStep", "createContextPolicy"],
      langchain: "ERR_MODULE_NOT_FOUND",
      "openai-agents": ["contextPolicyInputFilter", "createContextPolicy"],
      mastra: ["contextPolicyProcessor", "createContextPolicy"],
      openai: ["contextPolicyChatRequest", "contextPolicyResponsesRequest", "createContextPolicy"],
      anthropic: ["contextPolicyMessagesRequest", "createContextPolicy"],
    });
  }, 180_000);
});
