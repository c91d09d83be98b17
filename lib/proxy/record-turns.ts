import "server-only";
import type { Message } from "@/lib/context";
import type { Database, JsonObject, MessageRecord } from "@/lib/db";
import { recordMessages } from "@/lib/memory";

/** One message to record with the metadata it is stored with. */
export interface RecordTurn {
  message: Message;
  metadata: JsonObject;
}

/**
 * Records turns through the memory layer (token counts, large tool results
 * as artifacts, summary and checkpoint when a threshold is crossed), as an
 * optimistic append: ConflictError when the branch no longer has `expectedLength` messages.
 */
export async function recordTurns(db: Database, branchId: string, turns: RecordTurn[], expectedLength: number): Promise<MessageRecord[]> {
  const result = await recordMessages(
    db,
    branchId,
    turns.map((turn) => turn.message),
    { expectedLength, metadata: turns.map((turn) => turn.metadata) },
  );
  return result.messages;
}
