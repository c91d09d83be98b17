import fs from "node:fs";
import path from "node:path";

/** Where the app the command starts lives: the packed package (PK-2), or a repository checkout. */
export interface AppLayout {
  /** The folder holding `next.config.mjs`, `public/`, `prisma/` and the build. */
  root: string;
  /** True in the package `npm run pack:app` makes (its build is always `.next`). */
  packaged: boolean;
  version: string;
}

/** The packed package keeps the data migration beside the command, bundled. */
export const PACKED_COMPACT_SCRIPT = path.join("bin", "compact-requests.mjs");

/** The app around `from` (this file's folder): the nearest ancestor holding `next.config.mjs`. */
export function findAppLayout(from: string): AppLayout {
  let directory = path.resolve(from);
  while (!fs.existsSync(path.join(directory, "next.config.mjs"))) {
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error(`context-lab: no next.config.mjs in ${from} or any folder above it; the package is incomplete, reinstall it`);
    directory = parent;
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(directory, "package.json"), "utf8")) as { version?: string };
  return { root: directory, packaged: fs.existsSync(path.join(directory, PACKED_COMPACT_SCRIPT)), version: manifest.version ?? "0.0.0" };
}

/** The folder of the installed package `name`, found as Node finds it from `from` (no `exports` map in the way). */
export function findPackageDirectory(name: string, from: string): string {
  let directory = path.resolve(from);
  for (;;) {
    const candidate = path.join(directory, "node_modules", name);
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error(`context-lab: the package ${name} is not installed beside ${from}; reinstall context-lab`);
    directory = parent;
  }
}

/** The script of `name`'s command `bin` (its package.json `bin` field). */
export function findPackageBin(name: string, bin: string, from: string): string {
  const directory = findPackageDirectory(name, from);
  const manifest = JSON.parse(fs.readFileSync(path.join(directory, "package.json"), "utf8")) as { bin?: string | Record<string, string> };
  const relative = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[bin];
  if (!relative) throw new Error(`context-lab: ${name} has no "${bin}" command in ${path.join(directory, "package.json")}`);
  return path.join(directory, relative);
}
