import path from "node:path";

/** Words that run another program: the label comes from what they run (`node agent.mjs` → "agent"). */
const RUNNERS = new Set([
  "node",
  "nodejs",
  "bun",
  "bunx",
  "deno",
  "tsx",
  "ts-node",
  "npx",
  "npm",
  "pnpm",
  "pnpx",
  "yarn",
  "python",
  "python3",
  "uv",
  "uvx",
  "pipx",
  "poetry",
  "ruby",
  "sh",
  "bash",
  "zsh",
  "env",
  "run",
  "exec",
  "dlx",
  "x",
]);

const MAX_LABEL_LENGTH = 60;

/** A label fit for an API key and a header: letters, digits, `.`, `_` and `-` (PK-7). */
export function cleanLabel(label: string): string {
  const cleaned = label
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_LABEL_LENGTH);
  return cleaned || "agent";
}

/** PK7: the default label, the name of the program the command runs, without folder or extension. */
export function labelFromCommand(command: string[]): string {
  for (const word of command) {
    if (word.startsWith("-") || word.includes("=")) continue;
    const name = path.basename(word).replace(/\.(m?[jt]s|cjs|py|rb|sh|exe|cmd)$/i, "");
    if (!RUNNERS.has(name.toLowerCase())) return cleanLabel(name);
  }
  return "agent";
}
