import type { Message } from "@/lib/context/light";
import type { WireFormat } from "@/lib/formats/types";

/** Input tokens of one call, split by what they carry (CA-4); `total` is their sum. */
export interface CallTokens {
  /** The encoding they were counted with, and whether it is the model's own. */
  encoding: string;
  exact: boolean;
  system: number;
  tools: number;
  /** Messages the previous call also sent. */
  history: number;
  /** Messages the previous call did not send, and the reply priming. */
  new: number;
  total: number;
}

/** Why a call failed, as the proxy recorded it. */
export interface CallError {
  /** "upstream", "proxy", "client" or "recorder". */
  source: string | null;
  type: string;
  message: string;
  code: string | null;
}

/** Tokens the provider reported for the call. */
export interface CallUsage {
  input: number;
  output: number;
  /** Of `input`, read from the prompt cache. */
  cached: number;
  /** Of `input`, written to the prompt cache. */
  cacheWrite: number;
}

/** One model call of a conversation, as the calls view lists it. */
export interface CallSummary {
  id: string;
  conversationId: string;
  branchId: string;
  createdAt: string;
  /** The wire format of the call (CA-1); null when neither body says. */
  protocol: WireFormat | null;
  /** The model the upstream answered with, else the one asked for. */
  model: string | null;
  /** HTTP status returned to the agent; null while the call runs. */
  status: number | null;
  /** "pending" while it runs, "failed" with an error or a status of 400 or more, else "ok". */
  outcome: "ok" | "failed" | "pending";
  error: CallError | null;
  streamed: boolean;
  latencyMs: number | null;
  /** Failed calls with the same request just before this one: it is retry number `retries` (CA-2). */
  retries: number;
  /** The upstream's `retry-after` (seconds) or `retry-after-ms` advice on a failed call. */
  retryAfter: string | null;
  usage: CallUsage | null;
  /** US dollars, from the reported usage and the catalogue's prices; null when either is missing (CA-5). */
  cost: number | null;
  /** Messages the agent sent: where in its history the call was made (CA-3). */
  requestMessages: number | null;
  /** Messages forwarded upstream (after the context pipeline). */
  sentMessages: number | null;
  tokens: CallTokens | null;
}

/** A page of calls, oldest first. */
export interface CallPage {
  calls: CallSummary[];
  /** Pass as `after` for the next page; null on the last one. */
  nextCursor: string | null;
}

/** One call with its bodies and the messages to diff it against the call before it. */
export interface CallDetail {
  call: CallSummary;
  /** The body the agent sent. */
  request: unknown;
  /** The body forwarded upstream; null when it was the agent's own. */
  sent: unknown;
  /** The upstream's answer (or the stream assembled). */
  response: unknown;
  /** The error as recorded. */
  error: unknown;
  /** The messages forwarded, canonical. */
  messages: Message[];
  /** The call before it in the conversation and the messages it forwarded; null for the first call. */
  previous: { id: string; messages: Message[] } | null;
}
