import { createHash } from "node:crypto";

/** Names the conversation to record into: a recordKey or a conversation id. */
export const CONVERSATION_HEADER = "x-context-lab-conversation";
/** Starts a conversation of its own for one run of an agent: recordKey `<key>/<session>`. */
export const SESSION_HEADER = "x-context-lab-session";
/** API keys of this form name their conversation: `ctxlab-<label>` records into recordKey `<label>`. */
export const LABEL_KEY_PREFIX = "ctxlab-";
/** Record keys are stored as given; longer ones are refused. */
const MAX_KEY_LENGTH = 200;

/** Who is calling, as far as recording is concerned. */
export interface AgentIdentity {
  /** The header's value or the key's label: a conversation id, else a recordKey. */
  key: string;
  /** How the key was found. */
  via: "header" | "api-key" | "agent-key" | "anonymous";
  /** The agent's own bearer key when it is a real upstream key (not `ctxlab-`), to forward when no upstream key is configured. */
  agentApiKey: string | null;
}

/** The agent's key: `Authorization: Bearer` (OpenAI), else `x-api-key` (Anthropic). */
function agentKeyOf(headers: Headers): string | null {
  const authorization = headers.get("authorization");
  const match = authorization ? /^Bearer\s+(.+)$/i.exec(authorization.trim()) : null;
  if (match) return match[1].trim();
  const apiKey = headers.get("x-api-key")?.trim();
  return apiKey ? apiKey : null;
}

/** P-S1: `X-Context-Lab-Session` gives a run a conversation of its own under the agent's key. */
function withSession(identity: AgentIdentity, headers: Headers): AgentIdentity {
  const session = headers.get(SESSION_HEADER)?.trim();
  if (!session) return identity;
  return { ...identity, key: `${identity.key}/${session}`.slice(0, MAX_KEY_LENGTH) };
}

/**
 * Finds the agent's conversation key: the `X-Context-Lab-Conversation` header,
 * else the label of a `ctxlab-<label>` API key (bearer or `x-api-key`), else
 * a fingerprint of the agent's own API key (never the key itself), else
 * "anonymous"; followed by `/<session>` when `X-Context-Lab-Session` is sent.
 */
export function identifyAgent(headers: Headers): AgentIdentity {
  return withSession(identifyCaller(headers), headers);
}

function identifyCaller(headers: Headers): AgentIdentity {
  const bearer = agentKeyOf(headers);
  // The request guard removes Context Lab's access token before routes run; should one slip through, it is never an upstream key.
  const accessToken = process.env.CONTEXT_LAB_TOKEN?.trim();
  const agentApiKey = bearer && !bearer.startsWith(LABEL_KEY_PREFIX) && bearer !== accessToken ? bearer : null;
  const header = headers.get(CONVERSATION_HEADER)?.trim();
  if (header) return { key: header.slice(0, MAX_KEY_LENGTH), via: "header", agentApiKey };
  if (bearer?.startsWith(LABEL_KEY_PREFIX) && bearer.length > LABEL_KEY_PREFIX.length) {
    return { key: bearer.slice(LABEL_KEY_PREFIX.length, LABEL_KEY_PREFIX.length + MAX_KEY_LENGTH), via: "api-key", agentApiKey };
  }
  if (agentApiKey) {
    const fingerprint = createHash("sha256").update(agentApiKey).digest("hex").slice(0, 12);
    return { key: `key-${fingerprint}`, via: "agent-key", agentApiKey };
  }
  return { key: "anonymous", via: "anonymous", agentApiKey: null };
}
