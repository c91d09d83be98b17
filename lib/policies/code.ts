import type { AdapterName } from "@/lib/adapters/entries";
import { ENGINE_PACKAGE_NAME, policyLiteral, type RequestPolicy } from "@/lib/context/light";
import type { ModelEntry } from "@/lib/models";
import { DEFAULT_SETTINGS, resolveSettings, type Settings } from "@/lib/settings";
import { fileStem } from "./export";
import { settingsWithPolicy } from "./policy";
import type { Policy } from "./schema";

/** The frameworks a policy is exported as code for (PO-9), each through its adapter of the engine package. */
export const CODE_TARGETS = ["ai-sdk-middleware", "ai-sdk-prepare-step", "langchain", "openai-agents", "mastra", "openai", "anthropic"] as const;
export type CodeTarget = (typeof CODE_TARGETS)[number];

/** What a target is called, what to install for it, and the engine subpath its snippet imports. */
export const CODE_TARGET_INFO: Readonly<Record<CodeTarget, { label: string; packages: readonly string[]; subpath: AdapterName }>> = {
  "ai-sdk-middleware": { label: "Vercel AI SDK (middleware)", packages: ["ai", "@ai-sdk/openai"], subpath: "ai-sdk" },
  "ai-sdk-prepare-step": { label: "Vercel AI SDK (prepareStep)", packages: ["ai", "@ai-sdk/openai"], subpath: "ai-sdk" },
  langchain: { label: "LangChain.js", packages: ["langchain", "@langchain/core", "@langchain/openai"], subpath: "langchain" },
  "openai-agents": { label: "OpenAI Agents SDK", packages: ["@openai/agents"], subpath: "openai-agents" },
  mastra: { label: "Mastra", packages: ["@mastra/core"], subpath: "mastra" },
  openai: { label: "OpenAI SDK", packages: ["openai"], subpath: "openai" },
  anthropic: { label: "Anthropic SDK", packages: ["@anthropic-ai/sdk"], subpath: "anthropic" },
};

/** A policy as code for a framework: the install line, a runnable module, and the name to save it under. */
export interface PolicyCode {
  install: string;
  code: string;
  filename: string;
}

const SYSTEM = "You are a helpful assistant.";
const QUESTION = "What can you help me with?";

function header(target: CodeTarget, policy: RequestPolicy, imports: readonly string[]): string {
  const { label, subpath } = CODE_TARGET_INFO[target];
  return `// A context policy exported from Context Lab, applied by ${label} to every model call.
${imports.join("\n")}
import type { RequestPolicy } from "${ENGINE_PACKAGE_NAME}";
import { ${adapterNames(target).join(", ")} } from "${ENGINE_PACKAGE_NAME}/${subpath}";

const policy: RequestPolicy = ${policyLiteral(policy)};
`;
}

function adapterNames(target: CodeTarget): readonly string[] {
  const names: Record<CodeTarget, readonly string[]> = {
    "ai-sdk-middleware": ["contextPolicyMiddleware"],
    "ai-sdk-prepare-step": ["contextPolicyPrepareStep"],
    langchain: ["contextPolicyMiddleware", "contextPolicyRunnable"],
    "openai-agents": ["contextPolicyInputFilter"],
    mastra: ["contextPolicyProcessor"],
    openai: ["contextPolicyChatRequest"],
    anthropic: ["contextPolicyMessagesRequest"],
  };
  return names[target];
}

/** The AI SDK provider of the policy's model: Anthropic's for a model counted by Anthropic's rule, else OpenAI's chat API. */
function aiSdkModel(policy: RequestPolicy): { imports: string; model: string; packages: string[] } {
  const model = JSON.stringify(policy.model);
  if (policy.mediaRule === "anthropic")
    return { imports: 'import { anthropic } from "@ai-sdk/anthropic";', model: `anthropic(${model})`, packages: ["ai", "@ai-sdk/anthropic"] };
  return { imports: 'import { openai } from "@ai-sdk/openai";', model: `openai.chat(${model})`, packages: ["ai", "@ai-sdk/openai"] };
}

function body(target: CodeTarget, policy: RequestPolicy): { imports: string[]; usage: string; packages: readonly string[] } {
  const model = JSON.stringify(policy.model);
  const ai = aiSdkModel(policy);
  switch (target) {
    case "ai-sdk-middleware":
      return {
        imports: [ai.imports, 'import { generateText, wrapLanguageModel } from "ai";'],
        packages: ai.packages,
        usage: `const model = wrapLanguageModel({ model: ${ai.model}, middleware: contextPolicyMiddleware(policy) });
const { text } = await generateText({ model, system: ${JSON.stringify(SYSTEM)}, prompt: ${JSON.stringify(QUESTION)} });
console.log(text);`,
      };
    case "ai-sdk-prepare-step":
      return {
        imports: [ai.imports, 'import { generateText, stepCountIs } from "ai";'],
        packages: ai.packages,
        usage: `const system = ${JSON.stringify(SYSTEM)};
const { text } = await generateText({
  model: ${ai.model},
  system,
  prompt: ${JSON.stringify(QUESTION)},
  stopWhen: stepCountIs(5),
  // Each step's messages as the policy sends them; the system prompt is passed so it is counted.
  prepareStep: contextPolicyPrepareStep(policy, { system }),
});
console.log(text);`,
      };
    case "langchain":
      return {
        imports: [
          'import { HumanMessage, SystemMessage } from "@langchain/core/messages";',
          'import { ChatOpenAI } from "@langchain/openai";',
          'import { createAgent } from "langchain";',
        ],
        packages: CODE_TARGET_INFO.langchain.packages,
        usage: `const model = new ChatOpenAI({ model: ${model} });

// An agent: every model call of its loop sends what the policy makes of its messages, its tools counted.
const agent = createAgent({ model, tools: [], systemPrompt: ${JSON.stringify(SYSTEM)}, middleware: [contextPolicyMiddleware(policy)] });
const result = await agent.invoke({ messages: [new HumanMessage(${JSON.stringify(QUESTION)})] });
console.log(result.messages.at(-1)?.text);

// A chain: the messages trimmed in front of the model.
const chain = contextPolicyRunnable(policy).pipe(model);
const reply = await chain.invoke([new SystemMessage(${JSON.stringify(SYSTEM)}), new HumanMessage(${JSON.stringify(QUESTION)})]);
console.log(reply.text);`,
      };
    case "openai-agents":
      return {
        imports: ['import { Agent, Runner } from "@openai/agents";'],
        packages: CODE_TARGET_INFO["openai-agents"].packages,
        usage: `const runner = new Runner({ callModelInputFilter: contextPolicyInputFilter(policy) });
const agent = new Agent({ name: "Assistant", instructions: ${JSON.stringify(SYSTEM)}, model: ${model} });
const result = await runner.run(agent, ${JSON.stringify(QUESTION)});
console.log(result.finalOutput);`,
      };
    case "mastra":
      return {
        imports: ['import { Agent } from "@mastra/core/agent";'],
        packages: CODE_TARGET_INFO.mastra.packages,
        usage: `const instructions = ${JSON.stringify(SYSTEM)};
const agent = new Agent({
  name: "assistant",
  instructions,
  model: ${JSON.stringify(`${policy.mediaRule === "anthropic" ? "anthropic" : "openai"}/${policy.model}`)},
  // The agent's instructions are passed so they are counted.
  inputProcessors: [contextPolicyProcessor(policy, { instructions })],
});
const result = await agent.generate(${JSON.stringify(QUESTION)});
console.log(result.text);`,
      };
    case "openai":
      return {
        imports: ['import OpenAI from "openai";'],
        packages: CODE_TARGET_INFO.openai.packages,
        usage: `const client = new OpenAI();
const withPolicy = contextPolicyChatRequest(policy);
const completion = await client.chat.completions.create(
  await withPolicy({
    model: ${model},
    messages: [
      { role: "system", content: ${JSON.stringify(SYSTEM)} },
      { role: "user", content: ${JSON.stringify(QUESTION)} },
    ],
  }),
);
console.log(completion.choices[0].message.content);`,
      };
    case "anthropic":
      return {
        imports: ['import Anthropic from "@anthropic-ai/sdk";'],
        packages: CODE_TARGET_INFO.anthropic.packages,
        usage: `const client = new Anthropic();
const withPolicy = contextPolicyMessagesRequest(policy);
const message = await client.messages.create(
  await withPolicy({
    model: ${model},
    max_tokens: ${policy.maxOutputTokens},
    system: ${JSON.stringify(SYSTEM)},
    messages: [{ role: "user", content: ${JSON.stringify(QUESTION)} }],
  }),
);
console.log(message.content);`,
      };
  }
}

/** A request policy as code for `target` (PO-9): a module that runs as it is once its packages are installed. */
export function policyCode(target: CodeTarget, policy: RequestPolicy, name = "policy"): PolicyCode {
  const { imports, usage, packages } = body(target, policy);
  return {
    install: `npm install ${[ENGINE_PACKAGE_NAME, ...packages].join(" ")}`,
    code: `${header(target, policy, imports)}\n${usage}\n`,
    filename: `${fileStem(name, "policy")}.${target}.ts`,
  };
}

/** A saved policy as code for `target` (PO-9): resolved against the catalogue over `base`, as its TypeScript export is (PO-7). */
export function exportPolicyCode(
  name: string,
  policy: Policy,
  target: CodeTarget,
  catalogue?: readonly ModelEntry[],
  base: Settings = DEFAULT_SETTINGS,
): PolicyCode {
  return policyCode(target, resolveSettings(settingsWithPolicy(base, policy), catalogue).policy, name);
}
