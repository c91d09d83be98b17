import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { alias, setupFiles } from "./vitest.config.js";

// `npm run test:fast`: the unit tests that need no database, server or browser, each once (in Node; the
// components in happy-dom). A test file that imports a helper below needs one of those and runs in the full
// suite only, as do the exhaustive tokenizer comparisons (`*.exhaustive.test.ts`) and the files in FULL_ONLY.
const NEEDS_SERVICES = [
  "@/tests/support/db",
  "@/tests/api/support",
  "@/tests/support/memory-fixtures",
  "@/tests/support/recorder-harness",
  "@/tests/support/next-server",
  "@/tests/proxy/support",
  "./support/",
  "../support/",
];
/** Whole-tree checks that take tens of seconds on their own. */
const FULL_ONLY = new Set([
  // Bundles the engine and installs the package in a scratch project.
  "scripts/pack-engine.test.ts",
  // Reads the import graph of the whole repository.
  "tests/unit/import-cycles.test.ts",
  // Type-checks every framework snippet against the frameworks' own types.
  "lib/policies/code.test.ts",
]);
const root = import.meta.dirname;
// The route fuzzers (tests/fuzz) run every route on both databases.
const SKIPPED_FOLDERS = new Set(["node_modules", ".git", "generated", "e2e", "fuzz"]);

function testFiles(folder: string): string[] {
  return fs.readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) || entry.name.startsWith(".") ? [] : testFiles(relative);
    return /\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

const needsServices = (file: string) => {
  const source = fs.readFileSync(path.join(root, file), "utf8");
  return NEEDS_SERVICES.some((helper) => source.includes(`"${helper}`));
};
const fast = ["lib", "app", "scripts", "bench", "tests", "components"]
  .flatMap(testFiles)
  .filter((file) => !file.endsWith(".exhaustive.test.ts") && !FULL_ONLY.has(file) && !needsServices(file));
const isComponent = (file: string) => file.startsWith("components/") || file.startsWith("lib/store/");

export default defineConfig({
  resolve: { alias },
  oxc: { jsx: { runtime: "automatic" } },
  test: {
    setupFiles,
    // As in the full suite: on a loaded 2-core machine some files take more than the default 5 s.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Files share their workers' module cache: most of an isolated run is importing the same modules again.
    // The full suite isolates every file, so a test that leaks state into another still fails there.
    pool: "threads",
    isolate: false,
    projects: [
      { extends: true, test: { name: "node", environment: "node", include: fast.filter((file) => !isComponent(file)) } },
      { extends: true, test: { name: "components", environment: "happy-dom", include: fast.filter(isComponent) } },
    ],
  },
});
