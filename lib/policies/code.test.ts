// Policies as code (PO-9): every snippet imports only what the engine package
// exports and compiles under strict against the frameworks' own types.
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as aiSdk from "@/lib/adapters/ai-sdk";
import * as anthropic from "@/lib/adapters/anthropic";
import { ADAPTER_NAMES, type AdapterName } from "@/lib/adapters/entries";
import * as langchain from "@/lib/adapters/langchain";
import * as mastra from "@/lib/adapters/mastra";
import * as openai from "@/lib/adapters/openai";
import * as openaiAgents from "@/lib/adapters/openai-agents";
import { ENGINE_PACKAGE_NAME } from "@/lib/context";
import { DEFAULT_SETTINGS, resolveSettings, settingsForMode } from "@/lib/settings";
import { CODE_TARGET_INFO, CODE_TARGETS, exportPolicyCode, policyCode } from "./code";
import { policyOfPreset, settingsWithPolicy } from "./policy";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** What each entry of the package exports at run time. */
const ADAPTERS: Record<AdapterName, object> = { "ai-sdk": aiSdk, langchain, "openai-agents": openaiAgents, mastra, openai, anthropic };
const saved = policyOfPreset("observation_masking", DEFAULT_SETTINGS);
const openaiPolicy = resolveSettings(settingsWithPolicy(DEFAULT_SETTINGS, saved)).policy;
const claudePolicy = resolveSettings({ ...settingsForMode("navigator"), model: "claude-sonnet-4-5" }).policy;

/** `import ... from "x"` specifiers of a module, with the names each imports. */
function importsOf(code: string): { specifier: string; names: string[] }[] {
  return [...code.matchAll(/^import (type )?(?:\{([^}]*)\}|(\w+)) from "([^"]+)";$/gm)].map((match) => ({
    specifier: match[4],
    names: (match[2] ?? match[3] ?? "")
      .split(",")
      .map((name) => name.trim().replace(/^type /, ""))
      .filter(Boolean),
  }));
}

/** The package a bare specifier belongs to (`@scope/name/sub` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Type-checks modules written in the repository's folder (so its node_modules resolve), the package mapped to its sources. */
function typeErrors(files: Record<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    types: ["node"],
    skipLibCheck: true,
    esModuleInterop: true,
    baseUrl: ROOT,
    paths: { [ENGINE_PACKAGE_NAME]: ["lib/context/index.ts"], [`${ENGINE_PACKAGE_NAME}/*`]: ["lib/adapters/*.ts"], "@/*": ["./*"] },
  };
  const virtual = new Map(Object.entries(files).map(([name, text]) => [path.join(ROOT, "lib", "policies", "snippets", name), text]));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists(file);
  host.readFile = (file) => virtual.get(file) ?? readFile(file);
  host.getSourceFile = (file, language, ...rest) =>
    virtual.has(file) ? ts.createSourceFile(file, virtual.get(file)!, language) : getSourceFile(file, language, ...rest);
  const program = ts.createProgram([...virtual.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => `${path.basename(diagnostic.file?.fileName ?? "")}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
}

describe("policy code", () => {
  it("[PO-9] each snippet imports the engine and an adapter the package exports, by names those modules export, and installs what it imports", () => {
    for (const policy of [openaiPolicy, claudePolicy]) {
      for (const target of CODE_TARGETS) {
        const { code, install } = policyCode(target, policy);
        const imports = importsOf(code);
        const engine = imports.filter(({ specifier }) => packageOf(specifier) === ENGINE_PACKAGE_NAME);
        expect(engine.map(({ specifier }) => specifier)).toEqual([ENGINE_PACKAGE_NAME, `${ENGINE_PACKAGE_NAME}/${CODE_TARGET_INFO[target].subpath}`]);
        const [, adapter] = engine;
        const subpath = adapter.specifier.slice(ENGINE_PACKAGE_NAME.length + 1);
        expect(ADAPTER_NAMES).toContain(subpath);
        for (const name of adapter.names) expect(Object.keys(ADAPTERS[subpath as AdapterName])).toContain(name);
        const installed = install.split(" ").slice(2);
        expect(installed[0]).toBe(ENGINE_PACKAGE_NAME);
        expect(installed.slice(1).sort()).toEqual(
          [...new Set(imports.map(({ specifier }) => packageOf(specifier)).filter((name) => name !== ENGINE_PACKAGE_NAME))].sort(),
        );
        // The policy travels whole.
        expect(code).toContain(`model: ${JSON.stringify(policy.model)}`);
        expect(code).toContain(`contextWindow: ${policy.contextWindow}`);
      }
    }
  });

  it("[PO-9] LangChain.js's code applies the policy both ways: a createAgent agent's middleware and a runnable in front of the model", () => {
    const { code, install } = policyCode("langchain", openaiPolicy);
    expect(code).toContain("middleware: [contextPolicyMiddleware(policy)]");
    expect(code).toContain("contextPolicyRunnable(policy).pipe(model)");
    expect(install).toBe(`npm install ${ENGINE_PACKAGE_NAME} langchain @langchain/core @langchain/openai`);
  });

  it("[PO-9] a saved policy's code holds it resolved against the catalogue, as its TypeScript export does", () => {
    const code = exportPolicyCode("Masking, 5 results", saved, "openai");
    expect(code).toEqual(policyCode("openai", openaiPolicy, "Masking, 5 results"));
    expect(code.filename).toBe("Masking-5-results.openai.ts");
    expect(code.install).toBe(`npm install ${ENGINE_PACKAGE_NAME} openai`);
  });

  it("[PO-9] every snippet compiles under strict against the frameworks' own types", () => {
    const files: Record<string, string> = {};
    for (const [label, policy] of [
      ["openai", openaiPolicy],
      ["claude", claudePolicy],
    ] as const)
      for (const target of CODE_TARGETS) files[`${label}-${target}.ts`] = policyCode(target, policy).code;
    expect(typeErrors(files)).toEqual([]);
    // The check can fail: a name the adapter does not export is an error.
    expect(
      typeErrors({ "wrong.ts": 'import { contextPolicyMiddlewares } from "@context-lab/engine/ai-sdk";\nexport { contextPolicyMiddlewares };\n' }),
    ).toHaveLength(1);
  }, 120_000);
});
