import type { Message, ToolDefinition } from "@/lib/context/messages";
import type { Database } from "@/lib/db/client";
import { createConversation, type CreateConversationResult } from "@/lib/db/conversations";
import type { SummaryRecord } from "@/lib/db/summaries";
import { compactBranch } from "@/lib/memory/compaction";
import { recordMessages } from "@/lib/memory/record";
import sample from "@/tests/fixtures/tau-bench-airline-sample.json";

interface RawMessage {
  role: Message["role"];
  content?: string | null;
  tool_calls?: Message["tool_calls"] | null;
  tool_call_id?: string | null;
  name?: string | null;
}

/** A real tau-bench airline trajectory (tests/fixtures/README.md) as engine messages, by its task id. */
export function tauBench(taskId: number): Message[] {
  const entry = (sample as { task_id: number; traj: RawMessage[] }[]).find((candidate) => candidate.task_id === taskId);
  if (!entry) throw new Error(`the tau-bench sample has no task ${taskId}`);
  return entry.traj.map((raw) => {
    const message: Message = { role: raw.role, content: raw.content ?? null };
    if (raw.tool_calls?.length) message.tool_calls = raw.tool_calls;
    if (raw.tool_call_id) message.tool_call_id = raw.tool_call_id;
    if (raw.name) message.name = raw.name;
    return message;
  });
}

/** A trajectory cut into the batches an agent records: the system prompt, then each user turn with the agent's work on it. */
export function turnsOf(messages: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  for (const message of messages) {
    if (turns.length === 0 || message.role === "user" || turns[turns.length - 1][0].role === "system") turns.push([message]);
    else turns[turns.length - 1].push(message);
  }
  return turns;
}

/** Tool definitions after tau-bench's airline tools (the trajectories carry none). */
export const AIRLINE_TOOLS: ToolDefinition[] = [
  {
    type: "function",
    function: {
      name: "get_reservation_details",
      description: "Get the details of a reservation.",
      parameters: {
        type: "object",
        properties: { reservation_id: { type: "string", description: "The reservation id, such as '8JX2WO'." } },
        required: ["reservation_id"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "cancel_reservation",
      description: "Cancel the whole reservation.",
      parameters: { type: "object", properties: { reservation_id: { type: "string", description: "The reservation ID." } }, required: ["reservation_id"] },
    },
  },
];

/** An empty conversation with memory settings, ready for recordMessages. */
export function memoryConversation(
  db: Database,
  settings: Record<string, unknown> = {},
  tools: ToolDefinition[] | null = null,
): Promise<CreateConversationResult> {
  return createConversation(db, { title: "memory", source: "recorder", settings, tools });
}

/** An assistant message calling one tool. */
export function toolCall(id: string, name: string, args: Record<string, unknown>, content: string | null = null): Message {
  return { role: "assistant", content, tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }] };
}

export const user = (content: string): Message => ({ role: "user", content });
export const assistant = (content: string): Message => ({ role: "assistant", content });
export const toolResult = (id: string, content: string): Message => ({ role: "tool", tool_call_id: id, content });

/** Rounds about checked baggage, then about cancelling, then small talk: summaries of them talk about different things. */
export const TOPICS = {
  baggage: [
    [
      user("How many checked bags can I bring on my economy flight to Boston?"),
      assistant("Economy passengers get one free checked bag; each extra bag costs 50 dollars."),
    ],
    [user("What is the weight limit for checked baggage?"), assistant("Each checked bag may weigh up to 50 pounds; heavier baggage pays an overweight fee.")],
    [user("Please add two extra bags to my reservation."), assistant("I added two extra checked bags; the baggage fee is 100 dollars.")],
  ],
  cancellation: [
    [user("I want to cancel my reservation ZFA04Y."), assistant("I can cancel reservation ZFA04Y for you; the flights are not yet flown.")],
    [user("Will I get a refund if I cancel?"), assistant("Cancellations within 24 hours of booking are refunded to the original payment method.")],
    [user("Please go ahead and cancel the trip."), assistant("Reservation ZFA04Y is cancelled; the refund goes back to your credit card.")],
  ],
  smallTalk: [
    [user("Thanks a lot."), assistant("You're welcome.")],
    [user("Have a nice day."), assistant("You too!")],
  ],
} satisfies Record<string, Message[][]>;

/** A topical branch and its two summaries. */
export interface TopicalBranch {
  branchId: string;
  baggage: SummaryRecord;
  cancellation: SummaryRecord;
}

/**
 * A pilot-mode branch (no automatic compaction) compacted by hand so that
 * summary 1 covers the baggage rounds and summary 2 the cancellation rounds;
 * the small talk stays raw. With `system`, a system prompt opens the history.
 */
export async function topicalBranch(
  db: Database,
  options: { system?: string; settings?: Record<string, unknown>; tools?: ToolDefinition[] } = {},
): Promise<TopicalBranch> {
  const { branch } = await memoryConversation(db, { mode: "pilot", ...options.settings }, options.tools ?? null);
  const system: Message[] = options.system ? [{ role: "system", content: options.system }] : [];
  const record = (rounds: Message[][], before: Message[] = []) => recordMessages(db, branch.id, [...before, ...rounds.flat()]);
  await record([...TOPICS.baggage, ...TOPICS.cancellation.slice(0, 2)], system);
  const baggage = (await compactBranch(db, branch.id, { force: true }))!.summary;
  await record([TOPICS.cancellation[2], ...TOPICS.smallTalk]);
  const cancellation = (await compactBranch(db, branch.id, { force: true }))!.summary;
  return { branchId: branch.id, baggage, cancellation };
}
