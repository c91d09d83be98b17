// `npm run pack:engine`: lib/context as the package @context-lab/engine (E-RP11), in
// dist/engine with its tarball in dist, with the framework adapters of lib/adapters as
// subpaths (`@context-lab/engine/ai-sdk`, AD7). ESM bundled by esbuild (the tokenizer and
// its ranks inside, so the package has no runtime dependency and installs offline), .d.ts
// by tsc. No Next, no Prisma: the engine imports neither (E-I1). The adapters import their
// frameworks' types only, except LangChain's, which makes LangChain messages and an agent
// middleware: those frameworks are optional peer dependencies, never bundled.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { ADAPTER_NAMES } from "../lib/adapters/entries";

const ROOT = path.join(import.meta.dirname, "..");
const LIB = path.join(ROOT, "lib");

/** Each entry of the package: its subpath, its source under lib/, its output file's stem. */
interface Entry {
  subpath: string;
  source: string;
  name: string;
}

const ENTRIES: readonly Entry[] = [
  { subpath: ".", source: "context/index.ts", name: "index" },
  { subpath: "./light", source: "context/light.ts", name: "light" },
  ...ADAPTER_NAMES.map((name) => ({ subpath: `./${name}`, source: `adapters/${name}.ts`, name })),
];

/** The frameworks the adapters are written against: never bundled, optional for whoever does not use that adapter. */
const PEERS: Readonly<Record<string, string>> = {
  ai: ">=6.0.0",
  "@langchain/core": ">=1.0.0",
  // The LangChain entry builds its agent middleware with langchain's createMiddleware, so loading it needs both.
  langchain: ">=1.0.0",
  "@openai/agents": ">=0.20.0",
  "@mastra/core": ">=0.24.0 <1.0.0",
};

const declarationOf = (entry: Entry) => `./types/${entry.source.replace(/\.ts$/, ".d.ts")}`;

export interface PackEngineOptions {
  /** Where `engine/` and the tarball go (default `dist`). */
  outDir?: string;
}

export interface PackEngineResult {
  /** The package's folder. */
  directory: string;
  /** The `npm pack` tarball. */
  tarball: string;
}

/** Builds and packs the engine; returns where the package and its tarball are. */
export async function packEngine(options: PackEngineOptions = {}): Promise<PackEngineResult> {
  const outDir = path.resolve(options.outDir ?? path.join(ROOT, "dist"));
  const directory = path.join(outDir, "engine");
  fs.rmSync(directory, { recursive: true, force: true });
  fs.mkdirSync(directory, { recursive: true });
  await build({
    entryPoints: Object.fromEntries(ENTRIES.map((entry) => [entry.name, path.join(LIB, entry.source)])),
    external: Object.keys(PEERS).flatMap((name) => [name, `${name}/*`]),
    outdir: directory,
    bundle: true,
    // Each encoding's ranks stay a chunk of their own, loaded by a dynamic import (as in the app's Web Worker).
    splitting: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    mainFields: ["module", "main"],
    legalComments: "none",
    logLevel: "warning",
  });
  declarations(directory);
  const rootPackage = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  const exports = Object.fromEntries(ENTRIES.map((entry) => [entry.subpath, { types: declarationOf(entry), import: `./${entry.name}.js` }]));
  const manifest = {
    name: "@context-lab/engine",
    version: rootPackage.version,
    description: "Context Lab's context engine: the request builder, processors, token counting, replay and compare, with adapters for agent frameworks.",
    license: "MIT",
    type: "module",
    sideEffects: true,
    exports,
    types: declarationOf(ENTRIES[0]),
    peerDependencies: PEERS,
    peerDependenciesMeta: Object.fromEntries(Object.keys(PEERS).map((name) => [name, { optional: true }])),
    engines: { node: ">=20.19" },
  };
  fs.writeFileSync(path.join(directory, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(path.join(directory, "README.md"), README);
  fs.writeFileSync(
    path.join(directory, "THIRD_PARTY_LICENSES.md"),
    `# Bundled code\n\n## gpt-tokenizer (MIT)\n\n${fs.readFileSync(path.join(ROOT, "node_modules", "gpt-tokenizer", "LICENSE"), "utf8")}`,
  );
  const packed = JSON.parse(
    execFileSync("npm", ["pack", directory, "--pack-destination", outDir, "--json", "--ignore-scripts"], {
      cwd: outDir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }),
  ) as { filename: string }[];
  return { directory, tarball: path.join(outDir, packed[0].filename) };
}

/**
 * The package's .d.ts from tsc, with relative and `@/lib/...` imports spelled as
 * Node resolves them (`./light.js`, `../context/index.js`), so NodeNext projects read them too.
 */
function declarations(directory: string): void {
  const types = path.join(directory, "types");
  const config = path.join(directory, "tsconfig.declarations.json");
  fs.writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        declaration: true,
        emitDeclarationOnly: true,
        outDir: types,
        rootDir: LIB,
        baseUrl: ROOT,
        paths: { "@/*": ["./*"] },
        strict: true,
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "Bundler",
        lib: ["ES2023", "DOM", "DOM.Iterable", "WebWorker"],
        types: [],
        skipLibCheck: true,
        isolatedModules: true,
      },
      files: ENTRIES.map((entry) => path.join(LIB, entry.source)),
    }),
  );
  execFileSync(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", config], { stdio: "inherit" });
  fs.rmSync(config);
  for (const file of walk(types)) {
    const text = fs.readFileSync(file, "utf8");
    const fixed = text.replace(/(from\s+|import\()(["'])((?:\.{1,2}|@\/lib)\/[^"']*)\2/g, (match, lead: string, quote: string, written: string) => {
      const target = written.startsWith("@/lib/") ? path.join(types, written.slice("@/lib/".length)) : path.resolve(path.dirname(file), written);
      let specifier = path.relative(path.dirname(file), target).split(path.sep).join("/");
      if (!specifier.startsWith(".")) specifier = `./${specifier}`;
      if (fs.existsSync(`${target}.d.ts`)) return `${lead}${quote}${specifier}.js${quote}`;
      if (fs.existsSync(path.join(target, "index.d.ts"))) return `${lead}${quote}${specifier}/index.js${quote}`;
      return match;
    });
    if (fixed !== text) fs.writeFileSync(file, fixed);
  }
}

function* walk(directory: string): Generator<string> {
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.name.endsWith(".d.ts")) yield full;
  }
}

const README = `# @context-lab/engine

Context Lab's context engine as a package: \`buildRequest\` with a \`RequestPolicy\`
decides what each model call sends; \`replayConversation\` and \`comparePolicies\`
replay a recorded conversation under policies. ESM, with types; no runtime
dependencies (the tokenizer is bundled: see THIRD_PARTY_LICENSES.md).

\`\`\`ts
import { buildRequest, presetPolicy } from "@context-lab/engine";
const request = await buildRequest({ history, tools, policy: presetPolicy("observation_masking") });
// send request.messages and request.tools; request.verdict.ok false: it does not fit
\`\`\`

## In your agent's framework

Each adapter applies a policy to what the agent sends, as Context Lab's Prompt
tab previews it and its proxy forwards it. The framework is yours to install.

| Framework | Import | Use |
|---|---|---|
| Vercel AI SDK | \`@context-lab/engine/ai-sdk\` | \`wrapLanguageModel({ model, middleware: contextPolicyMiddleware(policy) })\`, or \`prepareStep: contextPolicyPrepareStep(policy, { system })\` |
| LangChain.js | \`@context-lab/engine/langchain\` | \`contextPolicyRunnable(policy, { tools }).pipe(model)\`, or \`createAgent({ ..., middleware: [contextPolicyMiddleware(policy)] })\` |
| OpenAI Agents SDK | \`@context-lab/engine/openai-agents\` | \`new Runner({ callModelInputFilter: contextPolicyInputFilter(policy) })\` |
| Mastra | \`@context-lab/engine/mastra\` | \`new Agent({ ..., inputProcessors: [contextPolicyProcessor(policy, { instructions })] })\` |
| OpenAI SDK | \`@context-lab/engine/openai\` | \`client.chat.completions.create(await contextPolicyChatRequest(policy)(params))\` |
| Anthropic SDK | \`@context-lab/engine/anthropic\` | \`client.messages.create(await contextPolicyMessagesRequest(policy)(params))\` |

A request that does not fit the policy's window or budget throws
\`BudgetExceededError\` before anything is sent. When the policy offloads
large messages, the request carries the \`reload_offloaded\` tool where the
adapter writes the tool list (AI SDK middleware, OpenAI and Anthropic SDKs);
answer its calls with \`createContextPolicy(policy).reload(handle)\`.
`;

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { directory, tarball } = await packEngine();
  console.log(`pack:engine: ${path.relative(ROOT, directory)} and ${path.relative(ROOT, tarball)}`);
}
