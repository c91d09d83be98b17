import type { RequestPolicy } from "../request/policy";
import type { PolicySnippetOptions } from "./types";

/** The name `npm run pack:engine` gives the packed engine. */
export const ENGINE_PACKAGE_NAME = "@context-lab/engine";

/**
 * A TypeScript module that makes requests the way `policy` does (RP11): it
 * imports the packed engine, holds the policy as data and exports
 * `prepareRequest(history, tools)`, which returns what to send. It compiles
 * under `strict` as it is.
 * @example writeFileSync("context-policy.ts", policySnippet(presetPolicy("observation_masking")))
 */
export function policySnippet(policy: RequestPolicy, options: PolicySnippetOptions = {}): string {
  const packageName = options.packageName ?? ENGINE_PACKAGE_NAME;
  return `// A context policy exported from Context Lab: every model call sends what prepareRequest returns.
import { buildRequest, type BuiltRequest, type Message, type RequestPolicy, type ToolDefinition } from ${JSON.stringify(packageName)};

export const policy: RequestPolicy = ${JSON.stringify(policy, null, 2)};

/** The request this policy makes of the conversation so far: send its \`messages\` and \`tools\`; \`verdict.ok\` false means it does not fit. */
export function prepareRequest(history: readonly Message[], tools: readonly ToolDefinition[] = []): Promise<BuiltRequest> {
  return buildRequest({ history, policy, tools });
}
`;
}
