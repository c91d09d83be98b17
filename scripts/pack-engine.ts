// `npm run pack:engine`: lib/context as the package @context-lab/engine (RP11), in
// dist/engine with its tarball in dist. ESM bundled by esbuild (the tokenizer and its
// ranks inside, so the package has no runtime dependency and installs offline), .d.ts
// by tsc. No Next, no Prisma: the engine imports neither (I1).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const ROOT = path.join(import.meta.dirname, "..");
const ENGINE = path.join(ROOT, "lib", "context");
const ENTRIES = ["index", "light"] as const;

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
    entryPoints: Object.fromEntries(ENTRIES.map((entry) => [entry, path.join(ENGINE, `${entry}.ts`)])),
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
  const exports = Object.fromEntries(
    ENTRIES.map((entry) => [entry === "index" ? "." : `./${entry}`, { types: `./types/${entry}.d.ts`, import: `./${entry}.js` }]),
  );
  const manifest = {
    name: "@context-lab/engine",
    version: rootPackage.version,
    description: "Context Lab's context engine: the request builder, processors, token counting, replay and compare.",
    license: "MIT",
    type: "module",
    sideEffects: true,
    exports,
    types: "./types/index.d.ts",
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

/** The engine's .d.ts from tsc, with relative imports spelled as Node resolves them (`./light.js`), so NodeNext projects read them too. */
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
        rootDir: ENGINE,
        strict: true,
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "Bundler",
        lib: ["ES2023", "DOM", "DOM.Iterable", "WebWorker"],
        types: [],
        skipLibCheck: true,
        isolatedModules: true,
      },
      files: ENTRIES.map((entry) => path.join(ENGINE, `${entry}.ts`)),
    }),
  );
  execFileSync(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", config], { stdio: "inherit" });
  fs.rmSync(config);
  for (const file of walk(types)) {
    const text = fs.readFileSync(file, "utf8");
    const fixed = text.replace(/(from\s+|import\()(["'])(\.{1,2}\/[^"']*)\2/g, (match, lead: string, quote: string, specifier: string) => {
      const target = path.resolve(path.dirname(file), specifier);
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
`;

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { directory, tarball } = await packEngine();
  console.log(`pack:engine: ${path.relative(ROOT, directory)} and ${path.relative(ROOT, tarball)}`);
}
