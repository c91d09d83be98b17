import type { Environment } from "../home";

/** Where one protocol's calls go, from the caller's own settings. */
export interface UpstreamChoice {
  baseUrl: string;
  apiKey: string | null;
}

/** The caller's real upstreams (PK-9), read before the agent's environment is pointed at the proxy. */
export interface CallerUpstreams {
  openai: UpstreamChoice | null;
  anthropic: UpstreamChoice | null;
}

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";

function realKey(value: string | undefined): string | null {
  const key = value?.trim();
  return key && !key.startsWith("ctxlab-") ? key : null;
}

/** A base URL that already points at this app would loop: it is not an upstream. */
function otherThan(value: string | undefined, appUrl: string): string | null {
  const url = value?.trim();
  if (!url) return null;
  try {
    return new URL(url).origin === new URL(appUrl).origin ? null : url;
  } catch {
    return url;
  }
}

/** PK9: the keys and base URLs the caller's agent would have used, to become the proxy's upstream. */
export function callerUpstreams(env: Environment, appUrl: string): CallerUpstreams {
  const openaiKey = realKey(env.OPENAI_API_KEY);
  const openaiBase = otherThan(env.OPENAI_BASE_URL || env.OPENAI_API_BASE, appUrl);
  const anthropicKey = realKey(env.ANTHROPIC_API_KEY);
  const anthropicBase = otherThan(env.ANTHROPIC_BASE_URL, appUrl);
  return {
    openai: openaiKey || openaiBase ? { baseUrl: openaiBase ?? OPENAI_DEFAULT_BASE_URL, apiKey: openaiKey } : null,
    anthropic: anthropicKey || anthropicBase ? { baseUrl: anthropicBase ?? ANTHROPIC_DEFAULT_BASE_URL, apiKey: anthropicKey } : null,
  };
}

/** The app's upstream variables for an app `record` starts; variables the caller set themselves win. */
export function upstreamVariables(upstreams: CallerUpstreams, env: Environment): Environment {
  const variables: Environment = {};
  const offer = (name: string, value: string | null | undefined) => {
    if (value && !env[name]?.trim()) variables[name] = value;
  };
  offer("CONTEXT_LAB_UPSTREAM_BASE_URL", upstreams.openai?.baseUrl);
  offer("CONTEXT_LAB_UPSTREAM_API_KEY", upstreams.openai?.apiKey);
  offer("CONTEXT_LAB_ANTHROPIC_BASE_URL", upstreams.anthropic?.baseUrl);
  offer("CONTEXT_LAB_ANTHROPIC_API_KEY", upstreams.anthropic?.apiKey);
  return variables;
}

/** The key naming the conversation (P-S label), with the access token when the app has one (SEC-4). */
export function labelKey(label: string, token: string | undefined): string {
  const trimmed = token?.trim();
  return trimmed ? `ctxlab-${label}~${trimmed}` : `ctxlab-${label}`;
}

/** PK7: the agent's environment, every OpenAI and Anthropic client setting pointed at the proxy under the label. */
export function agentEnvironment<T extends Environment>(env: T, appUrl: string, key: string): T {
  return {
    ...env,
    OPENAI_BASE_URL: `${appUrl}/api/v1`,
    // Older OpenAI clients, LangChain and LiteLLM read this name.
    OPENAI_API_BASE: `${appUrl}/api/v1`,
    OPENAI_API_KEY: key,
    // Anthropic's SDKs and Claude Code append /v1/messages.
    ANTHROPIC_BASE_URL: `${appUrl}/api`,
    ANTHROPIC_API_KEY: key,
    // Claude Code and the SDK send this as a bearer, which the proxy reads first: a real one would hide the label.
    ...(env.ANTHROPIC_AUTH_TOKEN ? { ANTHROPIC_AUTH_TOKEN: key } : {}),
  };
}
