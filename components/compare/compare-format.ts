import type { CompareResult, ComparedRun, Message, RecallRisk, ReplayCall, ToolDefinition } from "@/lib/context/light";
import { getContextTools } from "@/lib/context/tools";
import { writeRequest, type WireFormat } from "@/lib/formats";
import { toCsv } from "@/components/ui/csv";
import { BUILT_IN_MODELS, findModel, type ModelEntry } from "@/lib/models";

/** One row of the totals table: a run against raw. */
export interface CompareRow {
  id: string;
  label: string;
  model: string;
  inputTokens: number;
  /** Counted with a tokenizer standing in for the model's (its catalogue entry's, or an encoding chosen by hand): shown with "≈". */
  approximate: boolean;
  /** Input tokens as a share of raw's (1 for raw). */
  ratio: number;
  /** Dollars; null without prices. */
  cost: number | null;
  cacheHitShare: number;
  /** Calls whose request rewrote what the cache held: the input after the change is paid again. */
  cacheBreaks: number;
  budgetStops: number;
  risks: number;
  cheapest: boolean;
}

/** Whether a policy counts with a tokenizer other than its model's own (CT2). */
function countsApproximately(policy: { model: string; encoding: string }, catalogue: readonly ModelEntry[]): boolean {
  const { tokenizer } = findModel(policy.model, catalogue).entry;
  return !tokenizer.exact || policy.encoding !== tokenizer.encoding;
}

/** The totals of each run, the cheapest marked (by cost when every run has one, else by input tokens). */
export function compareRows(result: CompareResult, catalogue: readonly ModelEntry[] = BUILT_IN_MODELS): CompareRow[] {
  const raw = result.runs[0]?.replay.totals.inputTokens ?? 0;
  const rows = result.runs.map((run): CompareRow => {
    const { totals } = run.replay;
    return {
      id: run.id,
      label: run.label,
      model: run.replay.policy.model,
      inputTokens: totals.inputTokens,
      approximate: countsApproximately(run.replay.policy, catalogue),
      ratio: raw === 0 ? 1 : totals.inputTokens / raw,
      cost: totals.cost?.total ?? null,
      cacheHitShare: totals.cacheHitShare,
      cacheBreaks: totals.cacheBreaks,
      budgetStops: totals.budgetStops,
      risks: run.replay.calls.reduce((sum, call) => sum + call.recallRisks.length, 0),
      cheapest: false,
    };
  });
  const byCost = rows.every((row) => row.cost !== null);
  const measure = (row: CompareRow) => (byCost ? (row.cost as number) : row.inputTokens);
  const best = rows.reduce<CompareRow | undefined>((found, row) => (found === undefined || measure(row) < measure(found) ? row : found), undefined);
  if (best) best.cheapest = true;
  return rows;
}

/** A chart's lines: one per run, one value per call. */
export interface Series {
  id: string;
  label: string;
  values: (number | null)[];
}

export type ChartMeasure = "input" | "cumulative" | "cost";

export function seriesOf(result: CompareResult, measure: ChartMeasure): Series[] {
  return result.runs.map((run) => ({
    id: run.id,
    label: run.label,
    values:
      measure === "input"
        ? run.replay.calls.map((call) => call.tokens.total)
        : measure === "cumulative"
          ? run.cumulative.map((point) => point.inputTokens)
          : run.replay.calls.map((call) => call.cost?.total ?? null),
  }));
}

/** A risk with the call it was found at. */
export interface RiskEvidence extends RecallRisk {
  call: number;
}

export function risksOf(run: ComparedRun): RiskEvidence[] {
  return run.replay.calls.flatMap((call) => call.recallRisks.map((risk) => ({ ...risk, call: call.call })));
}

const CALL_HEADER = [
  "policy",
  "call",
  "message",
  "input_tokens",
  "system_tokens",
  "tools_tokens",
  "history_tokens",
  "new_turn_tokens",
  "cached_tokens",
  "cache_broken",
  "output_tokens",
  "cost_usd",
  "budget_stop",
  "recall_risks",
] as const;

/** Every call of every run, one row each. */
export function comparisonCsv(result: CompareResult): string {
  const rows = result.runs.flatMap((run) =>
    run.replay.calls.map((call: ReplayCall) => [
      run.label,
      call.call,
      call.at,
      call.tokens.total,
      call.tokens.system,
      call.tokens.tools,
      call.tokens.history,
      call.tokens.newTurns,
      call.cache.cachedTokens,
      call.cache.broken,
      call.outputTokens,
      call.cost?.total ?? null,
      call.stopped,
      call.recallRisks.length,
    ]),
  );
  return toCsv(CALL_HEADER, rows);
}

/** The comparison as JSON, request messages left out (each call keeps its counts). */
export function comparisonJson(result: CompareResult): string {
  const runs = result.runs.map((run) => ({ ...run, replay: { ...run.replay, calls: run.replay.calls.map(({ messages: _messages, ...call }) => call) } }));
  return JSON.stringify({ callPoints: result.callPoints, runs }, null, 2);
}

/** The wire formats a call's request can be exported as. */
export const REQUEST_FORMATS: readonly { format: WireFormat; label: string; limit: string }[] = [
  { format: "openai-chat", label: "OpenAI Chat", limit: "max_tokens" },
  { format: "openai-responses", label: "OpenAI Responses", limit: "max_output_tokens" },
  { format: "anthropic", label: "Anthropic Messages", limit: "max_tokens" },
];

/** The tools a call sent, by name: the conversation's and the engine's own (reload). */
export function toolsOfCall(call: ReplayCall, tools: readonly ToolDefinition[]): ToolDefinition[] {
  const known = new Map([...getContextTools().map((tool) => tool.definition), ...tools].map((tool) => [tool.function.name, tool]));
  return call.toolNames.flatMap((name) => known.get(name) ?? []);
}

/** A call's request as a wire format's body, with the model and reply limit, and what the format could not hold. */
export function requestOfCall(format: WireFormat, call: ReplayCall, run: ComparedRun, tools: readonly ToolDefinition[]): { text: string; warnings: number } {
  const limit = REQUEST_FORMATS.find((entry) => entry.format === format)?.limit ?? "max_tokens";
  const messages: Message[] = call.messages;
  const written = writeRequest(format, { messages, tools: toolsOfCall(call, tools) });
  const body = { model: run.replay.policy.model, [limit]: run.replay.policy.maxOutputTokens, ...written.value };
  return { text: JSON.stringify(body, null, 2), warnings: written.warnings.length };
}
