import "server-only";
import { BoundedMap } from "@/lib/context/bounded-map";
import { branchRevision, getHistoryByBranchId, type BranchScope, type ConversationRecord, type Database, type MessageRecord } from "@/lib/db";
import type { ModelEntry } from "@/lib/models";
import { loadMemorySnapshot } from "@/lib/request/server";
import { resolveStoredSettings, type ResolvedSettings } from "@/lib/settings";
import { FIRST_SCREEN_MESSAGES, toPageResult, type BranchOpening, type PageResult } from "./page-result";
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

/** What is kept is what the page carries: the sparse result and the first screen's records, not the whole history. */
interface Kept {
  key: string;
  built: Promise<FirstResult | null>;
}

const kept = new BoundedMap<string, Kept>(KEPT_BRANCHES);
let builds = 0;

/** How many results were built since the process started (tests count cache misses with it). */
export function firstResultBuilds(): number {
  return builds;
}

export interface FirstResultInput {
  conversation: ConversationRecord;
  /** The shown branch, as loaded with the page's read (its revision included). */
  scope: BranchScope;
  catalogue: readonly ModelEntry[];
  /** How many messages the page shows: their records come back with the result, and their marks are sent (FR3). */
  shown: number;
}

export interface FirstResult {
  result: PageResult;
  /** The branch's first `shown` records, the very objects the result was built from. */
  records: MessageRecord[];
}

/**
 * The branch's first result with its saved settings, or null when the worker
 * should build it: a branch over FIRST_RESULT_LIMIT messages, or a history the
 * loader repairs (the page's messages would not be the result's). Kept per
 * branch until the branch, its conversation's settings, title or tools, or
 * the page's first screen change (FR2); concurrent requests for the same key
 * share one build.
 */
export async function firstResult(db: Database, input: FirstResultInput): Promise<FirstResult | null> {
  const { conversation, scope, catalogue, shown } = input;
  const { branch } = scope;
  if (branch.length > FIRST_RESULT_LIMIT) return null;
  const settings = resolveStoredSettings(conversation.settings, catalogue);
  const key = JSON.stringify([branchRevision(scope), shown, settings, conversation.title, conversation.tools]);
  let entry = kept.get(branch.id);
  if (entry?.key !== key) {
    builds += 1;
    const built = build(db, scope, conversation, settings, shown);
    const created: Kept = { key, built };
    // A failed build is not kept: the next request tries again (the worker shows the error meanwhile).
    built.catch(() => kept.get(branch.id) === created && kept.delete(branch.id));
    entry = created;
  }
  kept.set(branch.id, entry);
  return entry.built.catch(() => null);
}

/**
 * The branch's first screen (FIRST_SCREEN_MESSAGES) and first result, for
 * the workspace page and for a branch switch alike: the records come with
 * the kept result when there is one, else they are read.
 */
export async function openingOf(db: Database, input: Omit<FirstResultInput, "shown">): Promise<Pick<BranchOpening, "records" | "result">> {
  const { scope } = input;
  const first = await firstResult(db, { ...input, shown: Math.min(FIRST_SCREEN_MESSAGES, scope.branch.length) });
  const records = first?.records ?? (await getHistoryByBranchId(db, scope, { toPosition: FIRST_SCREEN_MESSAGES }));
  return { records, result: first?.result ?? null };
}

async function build(
  db: Database,
  scope: BranchScope,
  conversation: ConversationRecord,
  settings: ResolvedSettings,
  shown: number,
): Promise<FirstResult | null> {
  const [records, snapshot] = await Promise.all([getHistoryByBranchId(db, scope), loadMemorySnapshot(db, scope, scope.branch.length)]);
  const host = new PipelineHost();
  const { conversation: loaded } = host.loadStored(conversation.title, records, conversation.tools ?? undefined, settings.policy.encoding, snapshot);
  if (loaded.repairs.length > 0) return null;
  const result: RunResult = { ...(await host.run({ settings })), origin: "server" };
  return { result: toPageResult(result, shown), records: records.slice(0, shown) };
}
