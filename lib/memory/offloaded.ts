import "server-only";
import { getOffloadedContentByHandle, type Database, type OffloadedContentRecord } from "@/lib/db";

/**
 * The exact content behind an offload handle as the branch sees it (its own,
 * else an ancestor's from before the fork): what `reload_offloaded` returns
 * to the agent. NotFoundError for a handle the branch cannot see.
 */
export function reloadOffloadedContent(db: Database, branchId: string, handle: string): Promise<OffloadedContentRecord> {
  return getOffloadedContentByHandle(db, branchId, handle);
}
