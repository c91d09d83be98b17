import type { RequestPolicy } from "../request/policy";
import type { PolicySnippetOptions } from "./types";

/** The name `npm run pack:engine` gives the packed engine. */
export const ENGINE_PACKAGE_NAME = "@context-lab/engine";

/**
 * A TypeScript module that makes requests the way `policy` does (E-RP11): it
 * imports the packed engine, holds the policy as data and exports
 * `prepareRequest(history, tools)`, which returns what to send. It compiles
 * under `strict` as it is.
 * @example writeFileSync("context-policy.ts", policySnippet(presetPolicy("observation_masking")))
 */
export function policySnippet(policy: RequestPolicy, options: PolicySnippetOptions = {}): string {
  const packageName = options.packageName ?? ENGINE_PACKAGE_NAME;
  return `// A context policy exported from Context Lab: every model call sends what prepareRequest returns.
import { buildRequest, type BuiltRequest, type Message, type RequestPolicy, type ToolDefinition } from ${JSON.stringify(packageName)};

export const policy: RequestPolicy = ${policyLiteral(policy)};

/** The request this policy makes of the conversation so far: send its \`messages\` and \`tools\`; \`verdict.ok\` false means it does not fit. */
export function prepareRequest(history: readonly Message[], tools: readonly ToolDefinition[] = []): Promise<BuiltRequest> {
  return buildRequest({ history, policy, tools });
}
`;
}

/**
 * A policy as a TypeScript object literal (unquoted keys, short objects on one
 * line), the form every exported snippet writes it in.
 * @example `const policy: RequestPolicy = ${policyLiteral(policy)};`
 */
export function policyLiteral(policy: RequestPolicy): string {
  return literal(policy, "");
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const LINE = 100;

/** A value as a TypeScript literal: unquoted keys, short objects and arrays on one line. */
function literal(value: unknown, indent: string): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((item) => literal(item, inner))
    : Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => `${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${literal(item, inner)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{ ", " }"];
  if (entries.length === 0) return Array.isArray(value) ? "[]" : "{}";
  const flat = `${open}${entries.join(", ")}${close}`;
  if (!flat.includes("\n") && indent.length + flat.length <= LINE) return flat;
  return `${open.trim()}\n${entries.map((entry) => `${inner}${entry},`).join("\n")}\n${indent}${close.trim()}`;
}
