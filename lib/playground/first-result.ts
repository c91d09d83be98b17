import "server-only";
import { branchRevision, getBranchScope, getHistoryByBranchId, type BranchRecord, type ConversationRecord, type Database } from "@/lib/db";
import type { ModelEntry } from "@/lib/models";
import { loadMemorySnapshot } from "@/lib/request/server";
import { normalizeSettings, resolveSettings } from "@/lib/settings";
import { PipelineHost } from "./pipeline-host";
import type { RunResult } from "./protocol";

/**
 * The workspace page's first pipeline result, built on the server (FR1 in
 * lib/playground/README.md): the page paints the trace and the processed
 * history before any script has run, and the worker's own first run replaces
 * it once the tokenizer is loaded. Same engine, same request builder, same
 * stored state as the worker reads, so the two results are equal.
 */

/** Longer branches start in the worker: a cold build on the server would hold its event loop too long (FR3). */
export const FIRST_RESULT_LIMIT = 10_000;
/** Branches whose result is kept (FR2); the least recently opened goes first. */
const KEPT_BRANCHES = 8;

interface Kept {
  key: string;
  result: Promise<RunResult | null>;
}

const kept = new Map<string, Kept>();
let builds = 0;

/** How many results were built since the process started (tests count cache misses with it). */
export function firstResultBuilds(): number {
  return builds;
}

export interface FirstResultInput {
  conversation: ConversationRecord;
  branch: BranchRecord;
  catalogue: readonly ModelEntry[];
  /** How many messages the page carries: the result's per-message marks are sent for those and for the messages it keeps. */
  shown: number;
}

/**
 * The branch's first result with its saved settings, or null when the worker
 * should build it: a branch over FIRST_RESULT_LIMIT messages, or a history the
 * loader repairs (the page's messages would not be the result's). Kept per
 * branch until the branch, its conversation's settings, title or tools change
 * (FR2); concurrent requests for the same key share one build.
 */
export async function firstResult(db: Database, input: FirstResultInput): Promise<RunResult | null> {
  const { conversation, branch, catalogue, shown } = input;
  if (branch.length > FIRST_RESULT_LIMIT) return null;
  const scope = await getBranchScope(db, branch.id);
  const settings = resolveSettings(normalizeSettings(conversation.settings).settings, catalogue);
  const key = JSON.stringify([branchRevision(scope), settings, conversation.title, conversation.tools]);
  let entry = kept.get(branch.id);
  if (entry?.key !== key) {
    builds += 1;
    const result = build(db, scope, conversation, settings);
    entry = { key, result };
    // A failed build is not kept: the next request tries again (the worker shows the error meanwhile).
    result.catch(() => kept.get(branch.id) === entry && kept.delete(branch.id));
  }
  kept.delete(branch.id);
  kept.set(branch.id, entry);
  if (kept.size > KEPT_BRANCHES) kept.delete(kept.keys().next().value as string);
  const result = await entry.result.catch(() => null);
  return result && forPage(result, shown);
}

async function build(
  db: Database,
  scope: Awaited<ReturnType<typeof getBranchScope>>,
  conversation: ConversationRecord,
  settings: ReturnType<typeof resolveSettings>,
): Promise<RunResult | null> {
  const [records, snapshot] = await Promise.all([getHistoryByBranchId(db, scope), loadMemorySnapshot(db, scope, scope.branch.length)]);
  const host = new PipelineHost();
  const { conversation: loaded } = host.loadStored(conversation.title, records, conversation.tools ?? undefined, settings.policy.encoding, snapshot);
  if (loaded.repairs.length > 0) return null;
  return { ...(await host.run({ settings })), origin: "server" };
}

/** The result as the page carries it: marks only where a view can show them (the first screen, the kept messages). */
function forPage(result: RunResult, shown: number): RunResult {
  return { ...result, marks: result.marks.map((marks, index) => (index < shown || result.kept[index] >= 0 ? marks : [])) };
}
