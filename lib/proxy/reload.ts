import "server-only";
import { isHandle, type Message, type ToolCall } from "@/lib/context";
import { getOffloadedContentByHandle, NotFoundError, type Database } from "@/lib/db";

/**
 * The proxy answers the model's `reload_offloaded` calls itself (PX-P4): the
 * agent never declared that tool, the builder added it because the request
 * carries offload markers (E-RB5). Protocol-neutral: a canonical reply in, the
 * assistant call and its tool results out, for the protocol to send again.
 */

export const RELOAD_TOOL_NAME = "reload_offloaded";
/** Upstream calls one proxied call may make answering reloads, after the first. */
export const MAX_RELOAD_ROUNDS = 8;

/** One round the proxy answered: the handles asked for and how many characters each gave (0 when unknown). */
export interface ReloadRound {
  handles: string[];
  found: boolean[];
  characters: number[];
}

/** Where a request's handles resolve: what this request offloaded, then the branch's stored content. */
export interface ReloadSource {
  db: Database;
  branchId: string;
  /** Handle → content of what the builder offloaded in this request. */
  offloaded: Readonly<Record<string, string>>;
}

/**
 * How one call answers the model's `reload_offloaded` calls (PX-R2), for
 * every protocol: where handles resolve, and the body of the next upstream
 * call with the answered rounds appended, written in the call's protocol.
 */
export interface ReloadLoop {
  source: ReloadSource;
  next(answered: Message[]): string;
}

/** The reply's `reload_offloaded` calls when they are all it asks for; null when it answers or calls the agent's tools too. */
export function reloadCallsOf(reply: Message | null): ToolCall[] | null {
  const calls = reply?.tool_calls ?? [];
  if (calls.length === 0 || calls.some((call) => call.function.name !== RELOAD_TOOL_NAME)) return null;
  return calls;
}

function handleOf(call: ToolCall): string | null {
  try {
    const args = JSON.parse(call.function.arguments) as { handle?: unknown };
    return typeof args.handle === "string" ? args.handle : null;
  } catch {
    return null;
  }
}

async function resolve(source: ReloadSource, handle: string | null): Promise<string | null> {
  if (handle === null || !isHandle(handle)) return null;
  const own = source.offloaded[handle];
  if (own !== undefined) return own;
  try {
    return (await getOffloadedContentByHandle(source.db, source.branchId, handle)).content;
  } catch (error) {
    if (NotFoundError.isInstance(error)) return null;
    throw error;
  }
}

/** The reply and a tool result for each of its reload calls: the content, or a sentence saying the handle is unknown. */
export async function answerReloads(source: ReloadSource, reply: Message, calls: readonly ToolCall[]): Promise<{ messages: Message[]; round: ReloadRound }> {
  const round: ReloadRound = { handles: [], found: [], characters: [] };
  const messages: Message[] = [reply];
  for (const call of calls) {
    const handle = handleOf(call);
    const content = await resolve(source, handle);
    round.handles.push(handle ?? "");
    round.found.push(content !== null);
    round.characters.push(content?.length ?? 0);
    const text =
      content ??
      `no offloaded content has the handle ${JSON.stringify(handle ?? call.function.arguments)}; call reload_offloaded with a handle from an [[OFFLOADED: handle=...]] marker`;
    messages.push({ role: "tool", tool_call_id: call.id, name: RELOAD_TOOL_NAME, content: text });
  }
  return { messages, round };
}
