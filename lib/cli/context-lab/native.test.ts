import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkSqliteDriver } from "./native";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "context-lab-native-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("the SQLite driver check", () => {
  it("[PK-12] passes where better-sqlite3 was built", () => {
    expect(() => checkSqliteDriver(ROOT)).not.toThrow();
  });

  it("[PK-12] stops with the way to allow the install script where npm skipped it", () => {
    // An installation as npm leaves it without the install script: the package, but no compiled addon.
    const app = path.join(work, "node_modules", "context-lab");
    const driver = path.join(work, "node_modules", "better-sqlite3");
    fs.mkdirSync(app, { recursive: true });
    fs.mkdirSync(driver, { recursive: true });
    fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "context-lab" }));
    fs.writeFileSync(path.join(driver, "package.json"), JSON.stringify({ name: "better-sqlite3", main: "index.js" }));
    fs.writeFileSync(path.join(driver, "index.js"), 'throw new Error("Could not locate the bindings file. Tried:\\n → build/better_sqlite3.node");');
    expect(() => checkSqliteDriver(app)).toThrow(
      [
        "context-lab: better-sqlite3's native addon does not load (Could not locate the bindings file. Tried:).",
        "npm skipped its install script, which builds it. Allow that one script, then install again:",
        `  with npx:        npm config set allow-scripts=better-sqlite3 --location=user, remove ${work}, and run npx context-lab again`,
        `  in a project:    add "allowScripts": { "better-sqlite3": true } to its package.json and run npm rebuild better-sqlite3 in ${work}`,
      ].join("\n"),
    );
  });
});
