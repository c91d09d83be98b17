/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import * as engine from "./index";

// The engine's own modules, as text (tests and test support excluded).
const SOURCES = import.meta.glob<string>(["./**/*.ts", "!./**/*.test.ts", "!./test-support/**"], { eager: true, query: "?raw", import: "default" });

// `from "x"`, `import "x"` and `import("x")`.
const FORBIDDEN_IMPORTS =
  /(?:from|import)\s*\(?\s*["'](node:[^"']+|fs|path|crypto|os|child_process|worker_threads|@prisma\/[^"']+|react|react-dom|next(\/[^"']*)?|server-only)["']/;

describe("isomorphism", () => {
  it("[E-I1] no engine module imports Node built-ins, Prisma, React or Next", () => {
    for (const forbidden of ['import fs from "node:fs";', 'import "server-only";', 'await import("crypto")', 'import { PrismaClient } from "@prisma/client";'])
      expect(forbidden).toMatch(FORBIDDEN_IMPORTS);
    expect(Object.keys(SOURCES).length).toBeGreaterThan(25);
    const offenders = Object.entries(SOURCES)
      .filter(([, source]) => FORBIDDEN_IMPORTS.test(source) || /\brequire\(/.test(source))
      .map(([path]) => path);
    expect(offenders).toEqual([]);
  });

  it("[E-I1] no engine module reads process.env", () => {
    expect(
      Object.entries(SOURCES)
        .filter(([, source]) => /process\.env/.test(source))
        .map(([path]) => path),
    ).toEqual([]);
  });

  it("[E-I1] the public entry loads and works in this environment (node, then happy-dom)", async () => {
    const { history } = await engine.processHistory([{ role: "user", content: "hello" }]);
    expect(history).toEqual([{ role: "user", content: "hello" }]);
    expect(new engine.TiktokenCounter({ model: "gpt-4o" }).countText("hello world")).toBe(2);
  });
});
