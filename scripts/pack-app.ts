// `npm run pack:app [-- --build=<dir>] [-- --results]`: the app as the package `context-lab` (docs/design/package.md, PK2), in dist/app with
// its tarball in dist. It ships the production build with its bundled server (lib/server, which serves it from the package), the
// migrations and the `context-lab` command bundled by esbuild; npm installs the runtime dependencies,
// pinned to the versions the build was made with.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { build } from "esbuild";
import { SERVER_BUNDLE } from "@/lib/server/bundle";
import { formatMb, machine, table, writeSection } from "../bench/results";
import { packEngine } from "./pack-engine";

const ROOT = path.join(import.meta.dirname, "..");

/** What the built server and the command load at run time: Next and React, Prisma's runtime, its CLI for migrations, the database drivers, zod (the server bundle's schemas) and gpt-tokenizer (the encodings it loads when first asked). */
const RUNTIME_DEPENDENCIES = [
  "next",
  "zod",
  "gpt-tokenizer",
  "react",
  "react-dom",
  "@prisma/client",
  "@prisma/adapter-better-sqlite3",
  "@prisma/adapter-pg",
  "better-sqlite3",
  "pg",
  "prisma",
] as const;

/** The build's files the server reads; the cache, traces, type stubs and source maps stay behind. */
const BUILD_SKIP = new Set(["cache", "trace", "trace-build", "types", "diagnostics", "node_modules", "turbopack", "dev"]);

export interface PackAppOptions {
  /** Where `app/` and the tarball go (default `dist`). */
  outDir?: string;
  /** An existing production build to ship (relative to the repository); by default `next build` makes a fresh one first. */
  buildDir?: string;
}

export interface PackAppResult {
  /** The package's folder. */
  directory: string;
  /** The `npm pack` tarball. */
  tarball: string;
  /** The tarball's size and the package's unpacked size, in bytes. */
  size: number;
  unpackedSize: number;
}

/** Builds (unless given a build) and packs the app; returns where the package and its tarball are. */
export async function packApp(options: PackAppOptions = {}): Promise<PackAppResult> {
  const outDir = path.resolve(options.outDir ?? path.join(ROOT, "dist"));
  const directory = path.join(outDir, "app");
  const buildDir = options.buildDir ? path.resolve(ROOT, options.buildDir) : freshBuild();
  if (!fs.existsSync(path.join(buildDir, "BUILD_ID")) || !fs.existsSync(path.join(buildDir, SERVER_BUNDLE)))
    throw new Error(`pack:app: ${buildDir} holds no production build with its server (BUILD_ID, ${SERVER_BUNDLE}); run npm run build first`);
  fs.rmSync(directory, { recursive: true, force: true });
  fs.mkdirSync(directory, { recursive: true });
  copyBuild(buildDir, path.join(directory, ".next"));
  await bundleCommands(directory);
  for (const entry of ["next.config.mjs", "prisma.config.ts", "public", "LICENSE"])
    fs.cpSync(path.join(ROOT, entry), path.join(directory, entry), { recursive: true });
  fs.cpSync(path.join(ROOT, "prisma"), path.join(directory, "prisma"), { recursive: true });
  fs.writeFileSync(path.join(directory, "package.json"), `${JSON.stringify(manifest(), null, 2)}\n`);
  fs.writeFileSync(path.join(directory, "README.md"), fs.readFileSync(path.join(ROOT, "scripts", "pack-app-readme.md"), "utf8"));
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", directory, "--pack-destination", outDir, "--json", "--ignore-scripts"], {
      cwd: outDir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }),
  ) as { filename: string; size: number; unpackedSize: number }[];
  return { directory, tarball: path.join(outDir, packed.filename), size: packed.size, unpackedSize: packed.unpackedSize };
}

/** `npm run build`: the build goes where the repository's builds go (`NEXT_DIST_DIR`, else `.next`); another folder would make Next rewrite tsconfig.json. */
function freshBuild(): string {
  execFileSync("bash", [path.join(ROOT, "scripts", "build.sh")], { cwd: ROOT, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" }, stdio: "inherit" });
  return path.join(ROOT, process.env.NEXT_DIST_DIR || ".next");
}

/**
 * Copies what the server needs. Turbopack reaches server-external packages through links it makes in
 * the build's own node_modules (`@prisma/client-<hash>` → the package); the package has no such links,
 * so each hashed name becomes the plain one, which Node resolves from the installed dependencies.
 */
function copyBuild(buildDir: string, target: string): void {
  fs.cpSync(buildDir, target, {
    recursive: true,
    filter: (source) => {
      const relative = path.relative(buildDir, source);
      if (BUILD_SKIP.has(relative.split(path.sep)[0])) return false;
      return !source.endsWith(".map") && !source.endsWith(".nft.json");
    },
  });
  const renames = hashedExternals(path.join(buildDir, "node_modules"));
  const externals = new Set<string>();
  for (const file of walk(path.join(target, "server"))) {
    if (!file.endsWith(".js")) continue;
    let text = fs.readFileSync(file, "utf8");
    for (const [hashed, plain] of renames) text = text.replaceAll(hashed, plain);
    fs.writeFileSync(file, text);
    // Turbopack's externals: `e.x("name", () => require("name"))` (CommonJS) and `await e.y("name")` (ESM).
    for (const match of text.matchAll(/\.x\("([^"]+)",\(\)=>require\(|await [\w$]+\.y\("([^"]+)"\)/g)) externals.add(match[1] ?? match[2]);
  }
  // The server bundle's own imports, static and dynamic (esbuild leaves every package to Node, SV-8).
  const bundle = fs.readFileSync(path.join(target, SERVER_BUNDLE), "utf8");
  for (const match of bundle.matchAll(/^import .* from "([^".][^"]*)";$|\bimport\("([^".][^"]*)"\)/gm)) externals.add(match[1] ?? match[2]);
  const dependencies = new Set<string>(RUNTIME_DEPENDENCIES);
  for (const specifier of externals) {
    const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
    if (!builtinModules.includes(name.replace(/^node:/, "")) && !dependencies.has(name)) {
      throw new Error(
        `pack:app: the build loads "${specifier}" at run time, which the package does not depend on: add it to RUNTIME_DEPENDENCIES in scripts/pack-app.ts`,
      );
    }
  }
}

/** `<name>-<16 hex digits>` → `<name>`, read from the links Turbopack left in the build's node_modules. */
function hashedExternals(modules: string): Map<string, string> {
  const renames = new Map<string, string>();
  if (!fs.existsSync(modules)) return renames;
  const entries = fs
    .readdirSync(modules)
    .flatMap((entry) => (entry.startsWith("@") ? fs.readdirSync(path.join(modules, entry)).map((inner) => `${entry}/${inner}`) : [entry]));
  for (const entry of entries) {
    const match = /^(.+)-[0-9a-f]{16}$/.exec(entry);
    if (match) renames.set(entry, match[1]);
  }
  return renames;
}

/** The `context-lab` command and the stored-request compaction, each one ESM file for plain Node. */
async function bundleCommands(directory: string): Promise<void> {
  const common = { bundle: true, platform: "node", format: "esm", target: "node20", legalComments: "none", logLevel: "warning", alias: { "@": ROOT } } as const;
  await build({
    ...common,
    entryPoints: [path.join(ROOT, "lib", "cli", "context-lab", "main.ts")],
    outfile: path.join(directory, "bin", "context-lab.mjs"),
    banner: { js: "#!/usr/bin/env node" },
  });
  fs.chmodSync(path.join(directory, "bin", "context-lab.mjs"), 0o755);
  await build({
    ...common,
    entryPoints: [path.join(ROOT, "scripts", "compact-requests.ts")],
    outfile: path.join(directory, "bin", "compact-requests.mjs"),
    // lib/db's `server-only` guard resolves to its empty module under this condition, as in `npm run db migrate`.
    conditions: ["react-server"],
    external: ["@prisma/client", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "better-sqlite3", "pg"],
    // The generated Prisma client and the adapters are CommonJS-flavoured: give the bundle a require.
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  });
}

function installedVersion(name: string): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

function manifest(): Record<string, unknown> {
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    version: string;
    description: string;
    engines: Record<string, string>;
  };
  return {
    name: "context-lab",
    version: root.version,
    description: root.description,
    license: "MIT",
    type: "module",
    bin: { "context-lab": "bin/context-lab.mjs" },
    engines: root.engines,
    // The build is tied to the exact Next and Prisma it was made with.
    dependencies: Object.fromEntries(RUNTIME_DEPENDENCIES.map((name) => [name, installedVersion(name)])),
  };
}

function* walk(directory: string): Generator<string> {
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

/** bench/RESULTS.md's "Packages" section: the packed app's and the packed engine's sizes. */
async function writeSizes(app: PackAppResult): Promise<void> {
  const engine = await packEngine();
  const unpacked = (directory: string) => [...walk(directory)].reduce((sum, file) => sum + fs.statSync(file).size, 0);
  const rows = [
    ["`context-lab` (`npm run pack:app`)", formatMb(app.size), formatMb(app.unpackedSize)],
    ["`@context-lab/engine` (`npm run pack:engine`)", formatMb(fs.statSync(engine.tarball).size), formatMb(unpacked(engine.directory))],
  ];
  writeSection(
    "packages",
    `## Packages: what \`npm pack\` makes

Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)} by \`npm run pack:app -- --results\`. The app ships its production build without the build cache and source maps (docs/design/package.md); npm installs its pinned run-time dependencies (Next, React, Prisma, the SQLite and PostgreSQL drivers) beside it. The engine bundles its tokenizer ranks and has no dependencies.

${table(["package", "tarball MiB", "unpacked MiB"], rows)}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const buildArgument = process.argv.find((argument) => argument.startsWith("--build="));
  const result = await packApp({ buildDir: buildArgument?.slice("--build=".length) });
  console.log(
    `pack:app: ${path.relative(ROOT, result.directory)} and ${path.relative(ROOT, result.tarball)} (${formatMb(result.size)} MiB, ${formatMb(result.unpackedSize)} MiB unpacked)`,
  );
  if (process.argv.includes("--results")) await writeSizes(result);
}
