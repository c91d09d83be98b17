import {
  Bm25Index,
  coveredBySummary,
  offloadMarker,
  positionsLabel,
  type Message,
  type PersistedMemory,
  type PersistedSummary,
  type RetrievedMemory,
} from "@/lib/context/light";

/** One link of a branch's persisted summary chain. */
export interface SnapshotSummary {
  id: string;
  /** The branch that wrote it (an ancestor's for inherited links). */
  branchId: string;
  fromPosition: number;
  toPosition: number;
  text: string;
}

/** A stored tool result, by its retrieval outline (never its content). */
export interface SnapshotArtifact {
  id: string;
  branchId: string;
  toolName: string | null;
  /** Short retrieval summary. */
  summary: string;
  /** The history position of its tool message. */
  position: number;
  /** The offload handle its full content reloads by, when the tool message names one. */
  handle?: string;
}

/**
 * What a branch's persisted memory holds, as the request builder's callers
 * need it: small (summaries and outlines, no history before the summary, no
 * artifact content), the same on the server and in the Web Worker.
 */
export interface MemorySnapshot {
  branchId: string;
  /** First history position the summary chain does not cover (0 without one). */
  coveredUntil: number;
  /** System messages before `coveredUntil`, in order: sent whole, first. */
  system: Message[];
  /** The visible summary chain, oldest first. */
  chain: SnapshotSummary[];
  /** The checkpoint that saved the latest summary, when one is visible. */
  checkpoint: { id: string; version: number } | null;
  /** The branch's visible artifacts: retrieval's candidates. */
  artifacts: SnapshotArtifact[];
}

/** A branch without persisted memory. */
export function emptySnapshot(branchId: string): MemorySnapshot {
  return { branchId, coveredUntil: 0, system: [], chain: [], checkpoint: null, artifacts: [] };
}

/** One memory ranked for a query: a summary of the chain or a stored tool result's outline. */
export interface MemoryHit {
  kind: "summary" | "artifact";
  id: string;
  /** The branch that owns it (an ancestor's for inherited memories). */
  branchId: string;
  /** The summary's text, or the artifact's retrieval summary. */
  text: string;
  /** BM25 score; higher is more relevant. */
  score: number;
  /** History positions `[from, to)` it stands for. */
  positions: [number, number];
  /** For an artifact: its tool and the handle its full content reloads by. */
  toolName?: string | null;
  handle?: string;
}

/** Memories retrieval returns unless told otherwise: up to the top 3. */
export const DEFAULT_RETRIEVAL_LIMIT = 3;

/**
 * BM25 over summaries and artifact outlines, best first; ties keep chain
 * order, then artifact order. Artifacts are ranked by their tool's name and
 * retrieval summary, never their content.
 */
export function rankMemories(
  summaries: readonly SnapshotSummary[],
  artifacts: readonly SnapshotArtifact[],
  query: string,
  options: { limit?: number; exclude?: readonly string[] } = {},
): MemoryHit[] {
  const excluded = new Set(options.exclude ?? []);
  const documents: { id: string; text: string; hit: Omit<MemoryHit, "score"> }[] = [];
  for (const summary of summaries) {
    if (excluded.has(summary.id)) continue;
    documents.push({
      id: summary.id,
      text: summary.text,
      hit: { kind: "summary", id: summary.id, branchId: summary.branchId, text: summary.text, positions: [summary.fromPosition, summary.toPosition] },
    });
  }
  for (const artifact of artifacts) {
    if (excluded.has(artifact.id)) continue;
    const hit: Omit<MemoryHit, "score"> = {
      kind: "artifact",
      id: artifact.id,
      branchId: artifact.branchId,
      text: artifact.summary,
      positions: [artifact.position, artifact.position + 1],
      toolName: artifact.toolName,
    };
    if (artifact.handle) hit.handle = artifact.handle;
    documents.push({ id: artifact.id, text: `${artifact.toolName ?? ""} ${artifact.summary}`, hit });
  }
  return new Bm25Index(documents).search(query, options.limit ?? DEFAULT_RETRIEVAL_LIMIT).map(({ document, score }) => ({ ...document.hit, score }));
}

function summaryLabel(snapshot: MemorySnapshot, latest: SnapshotSummary): string {
  const range = positionsLabel(snapshot.chain[0].fromPosition, latest.toPosition);
  const inherited = latest.branchId !== snapshot.branchId ? ", inherited" : "";
  return snapshot.checkpoint
    ? `Checkpoint v${snapshot.checkpoint.version} (summary of messages ${range}${inherited})`
    : `Summary ${snapshot.chain.length} (messages ${range}${inherited})`;
}

function retrievedOf(snapshot: MemorySnapshot, hit: MemoryHit): RetrievedMemory {
  const [from, to] = hit.positions;
  const base = { id: hit.id, kind: hit.kind, score: hit.score, positions: hit.positions };
  if (hit.kind === "summary") {
    const number = snapshot.chain.findIndex((summary) => summary.id === hit.id) + 1;
    return { ...base, label: `summary ${number}`, content: `[Retrieved summary of messages ${positionsLabel(from, to)}]\n${hit.text}` };
  }
  const tool = hit.toolName ?? "tool";
  const reload = hit.handle ? `; full result: ${offloadMarker(hit.handle)}` : "";
  return { ...base, label: `${tool} result at message ${from}`, content: `[Retrieved ${tool} result from message ${from}${reload}]\n${hit.text}` };
}

/**
 * The persisted memory one request carries (E-RB1, E-RB2): the latest summary
 * (as its checkpoint), the covered part's system messages, and up to `limit`
 * older summaries or stored tool results most relevant to `query`.
 */
export function memoryForRequest(snapshot: MemorySnapshot, options: { query: string; limit: number }): PersistedMemory {
  const latest = snapshot.chain.at(-1);
  const summary: PersistedSummary | null = latest
    ? { id: latest.id, text: latest.text, fromPosition: snapshot.chain[0].fromPosition, toPosition: latest.toPosition, label: summaryLabel(snapshot, latest) }
    : null;
  // The latest summary is in the request already, and so is every artifact whose tool message the raw history carries;
  // E-RB8: a summary it covers would repeat it, so it is not ranked (it would take the place of a memory that adds something).
  const hits =
    options.limit > 0 && options.query.trim() !== ""
      ? rankMemories(
          snapshot.chain
            .slice(0, -1)
            .filter(
              (link) => !coveredBySummary({ id: link.id, kind: "summary", label: "", content: "", positions: [link.fromPosition, link.toPosition] }, summary),
            ),
          snapshot.artifacts.filter((artifact) => artifact.position < snapshot.coveredUntil),
          options.query,
          { limit: options.limit },
        )
      : [];
  const retrieved = hits.map((hit) => retrievedOf(snapshot, hit));
  return { system: snapshot.system, summary, retrieved };
}
