import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");

describe("module graph", () => {
  it("has no runtime import cycle in the app, the engine or the UI (type-only imports aside)", { timeout: 120_000 }, async () => {
    const graph = await madge(
      ["lib", "app", "components"].map((folder) => path.join(root, folder)),
      {
        baseDir: root,
        fileExtensions: ["ts", "tsx"],
        tsConfig: path.join(root, "tsconfig.json"),
        excludeRegExp: [/\.test\.tsx?$/, /[\\/]generated[\\/]/, /[\\/]test-support[\\/]/],
        detectiveOptions: { ts: { skipTypeImports: true }, tsx: { skipTypeImports: true } },
      },
    );
    expect(graph.circular()).toEqual([]);
    // The graph was read: the engine's entry and its imports are in it.
    expect(Object.keys(graph.obj()).some((file) => file.endsWith("lib/context/index.ts"))).toBe(true);
  });
});
