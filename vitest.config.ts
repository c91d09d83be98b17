import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;
const alias = {
  "@": root,
  // `server-only` throws outside React Server Components; tests import the db layer directly.
  "server-only": path.join(root, "tests", "support", "server-only-stub.ts"),
};

export default defineConfig({
  resolve: { alias },
  oxc: { jsx: { runtime: "automatic" } },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "node",
          environment: "node",
          include: ["lib/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts", "bench/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/proxy/**/*.test.ts"],
        },
      },
      {
        // The engine's and the importer's tests again in a browser-like environment: isomorphism proven, not promised.
        resolve: { alias },
        test: {
          name: "engine-dom",
          environment: "happy-dom",
          include: ["lib/context/**/*.test.ts", "lib/import/**/*.test.ts"],
        },
      },
      {
        resolve: { alias },
        oxc: { jsx: { runtime: "automatic" } },
        test: {
          name: "components",
          environment: "happy-dom",
          include: ["components/**/*.test.{ts,tsx}", "lib/store/**/*.test.ts"],
        },
      },
    ],
  },
});
