import { ContextError } from "../errors";
import { rawPolicy } from "./presets";
import { callPoints, replayConversation } from "./replay";
import type { ComparedPolicy, ComparedRun, CompareOptions, CompareResult, CumulativePoint, ReplayResult } from "./types";

/** Policies a comparison takes besides raw (E-RP9). */
export const MAX_COMPARED_POLICIES = 3;

/**
 * Replays one conversation under raw (no processor, the first policy's model
 * and limits) and up to 3 policies (E-RP9), one after another, and sets them
 * side by side: per call and cumulative tokens and cost, cache-hit share,
 * budget stops, and what each saves against raw.
 * @example const { runs } = await comparePolicies({ messages, tools, policies: [{ id: "mask", label: "Masking", policy: presetPolicy("observation_masking") }], prices })
 */
export async function comparePolicies(options: CompareOptions): Promise<CompareResult> {
  const { policies, onProgress, ...replay } = options;
  if (policies.length === 0) throw new ContextError("compare needs at least one policy besides raw", { where: "policies" });
  if (policies.length > MAX_COMPARED_POLICIES)
    throw new ContextError(`compare takes at most ${MAX_COMPARED_POLICIES} policies besides raw, got ${policies.length}`, { where: "policies" });
  const ids = new Set<string>();
  for (const [position, entry] of policies.entries()) {
    if (entry.id === "raw" || ids.has(entry.id))
      throw new ContextError(`policy ${position}: id '${entry.id}' is taken (ids are unique and 'raw' is the baseline's)`, {
        where: `policies.${position}.id`,
      });
    ids.add(entry.id);
  }
  const entries: ComparedPolicy[] = [{ id: "raw", label: "Raw", policy: rawPolicy(policies[0].policy) }, ...policies];
  const results: ReplayResult[] = [];
  for (const [finished, entry] of entries.entries()) {
    const result = await replayConversation({
      ...replay,
      policy: entry.policy,
      onProgress: onProgress && ((progress) => onProgress({ ...progress, policy: entry.id, finished, runs: entries.length })),
    });
    results.push(result);
  }
  const raw = results[0].totals;
  const runs = entries.map((entry, order): ComparedRun => {
    const replayed = results[order];
    const totals = replayed.totals;
    return {
      id: entry.id,
      label: entry.label,
      replay: replayed,
      cumulative: cumulativeOf(replayed),
      savedTokens: raw.inputTokens - totals.inputTokens,
      savedCost: raw.cost && totals.cost ? raw.cost.total - totals.cost.total : null,
    };
  });
  return { runs, callPoints: callPoints(options.messages) };
}

function cumulativeOf(result: ReplayResult): CumulativePoint[] {
  const points: CumulativePoint[] = [];
  let inputTokens = 0;
  let cachedTokens = 0;
  let cost: number | null = 0;
  for (const call of result.calls) {
    inputTokens += call.tokens.total;
    cachedTokens += call.cache.cachedTokens;
    cost = cost === null || call.cost === null ? null : cost + call.cost.total;
    points.push({ inputTokens, cachedTokens, cost });
  }
  return points;
}
