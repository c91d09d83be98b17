// Rule ids (CONTRIBUTING.md, "Rule ids"): each is defined once, in one spec, with
// its spec's prefix, and a test title cites only ids a spec defines. The files
// are read as they are now, so a new spec or a new test is checked too.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const SKIP = new Set(["node_modules", ".git", "generated", "fixtures", "test-results", "playwright-report"]);
/** `- **E-R3** ...`, `**IN-4** ...`, `- **[SEC-1] Host** ...`: an id at the start of a list item or line, in bold. */
const DEFINITION = /^\s*(?:[-*]\s+|\d+\.\s+|\|\s*)?\*\*\[?([A-Z]+-[A-Z]*\d+(?:\.\d+)?[a-z]?)(?:\]|\*\*)/;
/** `(E-R1)`, not `**E-R1`: an id written without its spec's prefix is also found, to be refused. */
const BARE_DEFINITION = /^\s*(?:[-*]\s+|\d+\.\s+|\|\s*)?\*\*\[?([A-Z]+\d+(?:\.\d+)?[a-z]?)(?:\]|\*\*)/;
/** A test's title: `it("[E-R1] ...`, `test("... [PX-D5.1, PX-D5.2] ...`, `describe(`. */
const TITLE = /\b(?:it|test|describe)(?:\.\w+)*\(\s*(["'`])((?:(?!\1).)*)\1/g;
const CITED = /\[([A-Z][A-Za-z0-9.,\s–-]*\d[a-z]?)\]/g;
const ID = /[A-Z]+-[A-Z]*\d+(?:\.\d+)?[a-z]?/g;

function walk(dir: string, keep: (file: string) => boolean, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith(".next")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, keep, out);
    else if (entry.isFile() && keep(full)) out.push(full);
  }
  return out;
}

const relative = (file: string): string => path.relative(ROOT, file);
const specs = walk(ROOT, (file) => file.endsWith(".md"));
const definitions = new Map<string, string[]>();
const bare: string[] = [];
for (const file of specs) {
  fs.readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, index) => {
      const where = `${relative(file)}:${index + 1}`;
      const prefixed = DEFINITION.exec(line);
      if (prefixed) definitions.set(prefixed[1]!, [...(definitions.get(prefixed[1]!) ?? []), where]);
      const unprefixed = BARE_DEFINITION.exec(line);
      if (unprefixed) bare.push(`${unprefixed[1]} at ${where}`);
    });
}

/** A section named by its rules' common stem: PX-D5 over PX-D5.1, PX-D5.2. */
const sections = new Set([...definitions.keys()].map((id) => id.replace(/\.\d+$/, "")));

describe("rule ids", () => {
  it("finds the specs' definitions", () => {
    expect(definitions.size).toBeGreaterThan(200);
    expect(definitions.get("E-R1")?.[0]).toMatch(/^lib\/context\/SPEC\.md:/);
  });

  it("defines every id once", () => {
    const duplicates = [...definitions].filter(([, where]) => where.length > 1).map(([id, where]) => `${id}: ${where.join(", ")}`);
    expect(duplicates).toEqual([]);
  });

  it("writes every defined id with its spec's prefix", () => {
    expect(bare).toEqual([]);
  });

  it("cites in test titles only ids a spec defines", () => {
    const tests = walk(ROOT, (file) => /\.(test|spec)\.tsx?$/.test(file));
    expect(tests.length).toBeGreaterThan(50);
    const unknown: string[] = [];
    for (const file of tests) {
      for (const title of fs.readFileSync(file, "utf8").matchAll(TITLE)) {
        for (const cited of title[2]!.matchAll(CITED)) {
          for (const id of cited[1]!.match(ID) ?? []) {
            if (!definitions.has(id) && !sections.has(id)) unknown.push(`${id} in ${relative(file)}`);
          }
        }
      }
    }
    expect(unknown).toEqual([]);
  });
});
