import {
  buildRequest,
  sanitizeHistory,
  type BuiltRequest,
  type Context,
  type HistoryRepair,
  type Message,
  type Summarizer,
  type ToolDefinition,
} from "@/lib/context";
import type { ResolvedSettings } from "@/lib/settings";
import { memoryForRequest, type MemorySnapshot } from "./snapshot";

/** A stored message with its place in the branch's history. */
export interface PositionedMessage {
  position: number;
  message: Message;
}

/** What the next request of a branch is built from. */
export interface NextRequestInput {
  /** The branch's stored messages from `snapshot.coveredUntil` on (more is fine: earlier ones are left out). */
  records: readonly PositionedMessage[];
  snapshot: MemorySnapshot;
  settings: ResolvedSettings;
  tools: readonly ToolDefinition[];
  /** A user turn not recorded yet (the Prompt tab's, the proxy's newest message). */
  current?: Message | null;
  summarizer?: Summarizer;
  /** The context runs read from (the playground's conversation context). */
  parent?: Context;
  taskId?: string;
}

/** The next request of a branch, with what was repaired in the raw history on the way. */
export interface NextRequest extends BuiltRequest {
  /** Broken tool pairs dropped from the raw history before building (a stored history is normally whole). */
  repairs: HistoryRepair[];
  /** The raw history the request was built on. */
  raw: Message[];
  /** What retrieval searched for. */
  query: string;
}

/**
 * The one way a branch's next request is made (E-RB1): the raw history after
 * the persisted summary (tool pairs checked, calls still waiting at the very
 * end kept), the snapshot's memory for the current turn (else the last user
 * message), and `buildRequest` with the resolved settings' policy. The
 * playground's Web Worker, the chat recorder, the proxy and `npm run inspect`
 * all call it with the same stored state, so they cannot disagree.
 */
export async function nextRequest(input: NextRequestInput): Promise<NextRequest> {
  const { snapshot, settings } = input;
  const stored = input.records.filter((record) => record.position >= snapshot.coveredUntil).map((record) => record.message);
  const { history: raw, repairs } = sanitizeHistory(stored, { allowPendingToolCalls: true });
  const current = input.current ?? null;
  const query = current?.content ?? raw.findLast((message) => message.role === "user")?.content ?? "";
  const memory = memoryForRequest(snapshot, { query, limit: settings.policy.retrievedMemories });
  const built = await buildRequest({
    history: raw,
    memory,
    current,
    tools: input.tools,
    policy: settings.policy,
    summarizer: input.summarizer,
    parent: input.parent,
    taskId: input.taskId,
  });
  return { ...built, repairs, raw, query };
}
