import "server-only";
import { Bm25Index } from "@/lib/context";
import { getArtifactOutlinesByBranchId, getBranchScope, getSummaryChainByBranchId, type ArtifactOutline, type Database, type SummaryRecord } from "@/lib/db";

/** One retrieved memory: a summary of the chain or an artifact's retrieval summary. */
export interface RetrievalHit {
  kind: "summary" | "artifact";
  id: string;
  /** The branch that owns it (an ancestor's for inherited memories). */
  branchId: string;
  /** The summary's text, or the artifact's retrieval summary. */
  text: string;
  /** BM25 score; higher is more relevant. */
  score: number;
  /** History positions `[from, to)` it stands for. */
  positions?: [number, number];
}

/** Options of `retrieveRelevant`. */
export interface RetrieveOptions {
  /** Most hits returned; default 3 (seed 002: up to the top 3). */
  limit?: number;
  /** Summary or artifact ids never to return (what the prompt already holds). */
  exclude?: string[];
}

/** Hits `retrieveRelevant` returns unless told otherwise (seed 002: up to the top 3). */
export const DEFAULT_RETRIEVAL_LIMIT = 3;

interface MemoryDocument {
  id: string;
  text: string;
  hit: Omit<RetrievalHit, "score">;
}

/** BM25 over the given summaries and artifacts, best first; ties keep chain order, then artifact order. */
export function rankRelevant(summaries: readonly SummaryRecord[], artifacts: readonly ArtifactOutline[], query: string, options: RetrieveOptions = {}): RetrievalHit[] {
  const excluded = new Set(options.exclude ?? []);
  const documents: MemoryDocument[] = [];
  for (const summary of summaries) {
    if (excluded.has(summary.id)) continue;
    const positions: [number, number] = [summary.fromPosition, summary.toPosition];
    documents.push({ id: summary.id, text: summary.text, hit: { kind: "summary", id: summary.id, branchId: summary.branchId, text: summary.text, positions } });
  }
  for (const artifact of artifacts) {
    if (excluded.has(artifact.id)) continue;
    const positions: [number, number] = [artifact.position, artifact.position + 1];
    const text = artifact.summary;
    documents.push({ id: artifact.id, text: `${artifact.toolName ?? ""} ${text}`, hit: { kind: "artifact", id: artifact.id, branchId: artifact.branchId, text, positions } });
  }
  const limit = options.limit ?? DEFAULT_RETRIEVAL_LIMIT;
  return new Bm25Index(documents).search(query, limit).map(({ document, score }) => ({ ...document.hit, score }));
}

/**
 * The summaries and artifact summaries visible to a branch (its own and its
 * ancestors' up to each fork) most relevant to `query`, by BM25, best first.
 */
export async function retrieveRelevant(db: Database, branchId: string, query: string, options: RetrieveOptions = {}): Promise<RetrievalHit[]> {
  const scope = await getBranchScope(db, branchId);
  const summaries = await getSummaryChainByBranchId(db, scope);
  // Retrieval ranks artifacts by their summaries: their content is never read.
  const artifacts = await getArtifactOutlinesByBranchId(db, scope, { inherited: true });
  return rankRelevant(summaries, artifacts, query, options);
}
