import { authorizationOf } from "../ports";
import type { CallerUpstreams } from "./agent-environment";

interface UpstreamView {
  configured: boolean;
  baseUrl: string | null;
  anthropic?: { configured: boolean; baseUrl: string | null };
}

/**
 * PK9 for an app already running: it keeps the upstream it has; a protocol with none configured is
 * given the caller's (saved in its settings, as the settings page would). Returns what was said about it.
 */
export async function adoptCallerUpstreams(url: string, token: string | undefined, upstreams: CallerUpstreams): Promise<string[]> {
  const headers = { ...authorizationOf(token), "content-type": "application/json" };
  const response = await fetch(`${url}/api/settings/upstream`, { headers });
  if (!response.ok) throw new Error(`context-lab: reading the upstream settings at ${url} answered ${response.status}`);
  const view = (await response.json()) as UpstreamView;
  const changes: Record<string, unknown> = {};
  const notes: string[] = [];
  if (!view.configured && upstreams.openai) {
    Object.assign(changes, { baseUrl: upstreams.openai.baseUrl, ...(upstreams.openai.apiKey ? { apiKey: upstreams.openai.apiKey } : {}) });
    notes.push(`the app had no OpenAI upstream: it now forwards to ${upstreams.openai.baseUrl}${upstreams.openai.apiKey ? " with your OPENAI_API_KEY" : ""}`);
  }
  if (view.anthropic && !view.anthropic.configured && upstreams.anthropic) {
    changes.anthropic = { baseUrl: upstreams.anthropic.baseUrl, ...(upstreams.anthropic.apiKey ? { apiKey: upstreams.anthropic.apiKey } : {}) };
    notes.push(
      `the app had no Anthropic upstream: it now forwards to ${upstreams.anthropic.baseUrl}${upstreams.anthropic.apiKey ? " with your ANTHROPIC_API_KEY" : ""}`,
    );
  }
  if (Object.keys(changes).length === 0) return notes;
  const saved = await fetch(`${url}/api/settings/upstream`, { method: "PUT", headers, body: JSON.stringify(changes) });
  if (!saved.ok) throw new Error(`context-lab: saving the upstream settings at ${url} answered ${saved.status}: ${await saved.text()}`);
  return notes;
}
