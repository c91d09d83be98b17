import { describe, expect, it } from "vitest";

// Every module's source, keyed by its path under lib/context; import.meta.glob works in both test environments.
const sources = import.meta.glob<string>(["./**/*.ts", "!./**/*.test.ts", "!./test-support/**"], { query: "?raw", import: "default", eager: true });

function importsOf(path: string): string[] {
  const source = sources[path] ?? "";
  const statics = [...source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gms)].map((match) => match[1]);
  // A dynamic import() downloads its module too (the encodings load their ranks that way).
  const dynamics = [...source.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map((match) => match[1]);
  return [...statics, ...dynamics];
}

function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") base.pop();
    else if (part !== ".") base.push(part);
  }
  const path = base.join("/");
  return [`${path}.ts`, `${path}/index.ts`].find((candidate) => candidate in sources);
}

/** Every package a module reaches through value imports, transitively. */
function packagesReachedFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const specifier of importsOf(path)) {
      const local = resolve(path, specifier);
      if (local) visit(local);
      else if (!specifier.startsWith(".")) packages.add(specifier);
    }
  };
  visit(entry);
  return packages;
}

describe("the light entry (lib/context/light.ts)", () => {
  it("[E-I2] reaches no tokenizer package, so the page's main thread never downloads BPE ranks", () => {
    const reached = [...packagesReachedFrom("./light.ts")];
    expect(reached.filter((name) => name.startsWith("gpt-tokenizer") || name.startsWith("js-tiktoken"))).toEqual([]);
  });

  it("[E-I2] the full entry does reach the tokenizer (so the check above can fail)", () => {
    expect([...packagesReachedFrom("./index.ts")].some((name) => name.startsWith("gpt-tokenizer"))).toBe(true);
  });

  it("[E-I2] exports the same values as the full entry under the same names", async () => {
    const light = await import("./light");
    const full = await import("./index");
    for (const [name, value] of Object.entries(light)) expect(full[name as keyof typeof full], name).toBe(value);
  });
});
