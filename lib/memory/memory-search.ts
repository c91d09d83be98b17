import "server-only";
import { getArtifactOutlinesByBranchId, getBranchScope, getSummaryChainByBranchId, type Database } from "@/lib/db";
import { DEFAULT_RETRIEVAL_LIMIT, rankMemories, type MemoryHit } from "@/lib/request/snapshot";

/** Options of `retrieveRelevant`. */
export interface RetrieveOptions {
  /** Most hits returned; default 3. */
  limit?: number;
  /** Summary or artifact ids never to return. */
  exclude?: string[];
}

export { DEFAULT_RETRIEVAL_LIMIT, type MemoryHit as RetrievalHit };

/**
 * The summaries and artifact outlines visible to a branch (its own and its
 * ancestors' up to each fork) most relevant to `query`, by BM25, best first:
 * the branch's memory search. Artifacts are ranked by their summaries; their
 * content is never read.
 */
export async function retrieveRelevant(db: Database, branchId: string, query: string, options: RetrieveOptions = {}): Promise<MemoryHit[]> {
  const scope = await getBranchScope(db, branchId);
  const summaries = await getSummaryChainByBranchId(db, scope);
  const artifacts = await getArtifactOutlinesByBranchId(db, scope, { inherited: true });
  return rankMemories(summaries, artifacts, query, options);
}
