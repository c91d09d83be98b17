import "server-only";
import type { Message } from "@/lib/context";
import type { ConversationRecord, Database, JsonObject, MessageRecord } from "@/lib/db";
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
 * The branch's state is kept between an agent's calls (MEM-8): `conversation`
 * is the branch's, as the recorder just read it.
 */
export async function recordTurns(
  db: Database,
  conversation: ConversationRecord,
  branchId: string,
  turns: RecordTurn[],
  expectedLength: number,
): Promise<MessageRecord[]> {
  const result = await recordMessages(
    db,
    branchId,
    turns.map((turn) => turn.message),
    { expectedLength, metadata: turns.map((turn) => turn.metadata), conversation },
  );
  return result.messages;
}
