import { createRequire } from "node:module";
import path from "node:path";

/**
 * PK-12: whether better-sqlite3's native addon loads from the app's installation. npm builds it with the
 * package's install script, which npm skips unless the installing project (or the user's npm config)
 * allows it; the app would then start and fail every request, so the command stops first and says how to fix it.
 */
export function checkSqliteDriver(root: string): void {
  const load = createRequire(path.join(root, "package.json"));
  let location = "better-sqlite3";
  try {
    location = path.dirname(load.resolve("better-sqlite3/package.json"));
    const Driver = load("better-sqlite3") as new (file: string) => { close(): void };
    new Driver(":memory:").close();
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    const installRoot = location.includes(`${path.sep}node_modules${path.sep}`)
      ? location.slice(0, location.lastIndexOf(`${path.sep}node_modules${path.sep}`))
      : root;
    throw new Error(
      [
        `context-lab: better-sqlite3's native addon does not load (${reason}).`,
        "npm skipped its install script, which builds it. Allow that one script, then install again:",
        `  with npx:        npm config set allow-scripts=better-sqlite3 --location=user, remove ${installRoot}, and run npx context-lab again`,
        `  in a project:    add "allowScripts": { "better-sqlite3": true } to its package.json and run npm rebuild better-sqlite3 in ${installRoot}`,
      ].join("\n"),
    );
  }
}
