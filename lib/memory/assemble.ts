import "server-only";
import { computeHistoryBudget, sharedCounter, type HistoryBudgetResult, type Message, type Summarizer, type ToolDefinition } from "@/lib/context";
import { getCheckpointOutlinesByBranchId, type Database, type SummaryRecord } from "@/lib/db";
import { settingsEncoding } from "@/lib/playground/settings";
import { compactBranch, KEPT_ROUNDS, persistPlan, planCompaction, type CompactionPlan, type CompactionResult } from "./compaction";
import {
  buildPrompt,
  loadPromptState,
  loadRetrievalMetadata,
  systemMessagesOf,
  type BuiltPrompt,
  type PromptInput,
  type PromptSection,
  type PromptShape,
  type PromptState,
} from "./prompt";
import type { MemorySettings } from "./settings";
import { isCompactionDue, retryOnStale } from "./state";

/** The next request for a branch, section by section, with its budget. */
export interface AssembledPrompt {
  /** "compacted": this call persisted a compaction first; "budget_exceeded": no model call is to be made. */
  status: "ok" | "compacted" | "budget_exceeded";
  /** Static first (system, tools), so provider prompt caches work. */
  sections: PromptSection[];
  /** The request's messages in order; empty when the budget is exceeded. */
  messages: Message[];
  tools: ToolDefinition[];
  tokens: { system: number; tools: number; history: number; total: number };
  budget: HistoryBudgetResult & {
    /** The tighter of the token budget and the window's history share. */
    limit: number;
    /** Tokens of everything but system messages and tools (reply priming included). */
    projected: number;
  };
  /** The compaction this call persisted (due by threshold, or to get under the budget). */
  compaction: CompactionResult | null;
  /** What stage 3 left out to fit (or, when exceeded, left out and still did not fit), in order. */
  shrunk?: ShrinkStep[];
  /** The deterministic budget-limit result: no model call is to be made. */
  exceeded?: { budget: number; tokens: number; reason: string };
}

/** Options of `assemblePrompt`. */
export interface AssemblePromptOptions {
  /** The new user turn; retrieval searches for it (else for the last user message). */
  userTurn?: string | Message;
  /** Overrides of the conversation's stored settings. */
  settings?: Partial<MemorySettings>;
  /** Default: the conversation's tools. */
  tools?: ToolDefinition[];
  summarizer?: Summarizer;
  /** Default true: compaction may run and persist (stage 1 when due, stage 3 when over budget). */
  compact?: boolean;
}

/**
 * A stage 3 shrinking step: retrieved memories left out, then only the most
 * recent raw round sent raw. ("keep-2-rounds" is no longer a step: every
 * prompt keeps at most 2 raw rounds; it stays in the type for stored results.)
 */
export type ShrinkStep = "drop-retrieved" | "keep-2-rounds" | "keep-1-round";

const STEP_WORDS: Readonly<Record<ShrinkStep, string>> = {
  "drop-retrieved": "leaving out retrieved memories",
  "keep-2-rounds": "keeping only the 2 most recent raw rounds",
  "keep-1-round": "keeping only the most recent raw round",
};

/** Stage 3's deterministic ladder: each step keeps less; the checkpoint and the current turn always stay. */
const LADDER: readonly { shape: PromptShape; step?: ShrinkStep }[] = [
  { shape: { retrieved: true, recentRounds: KEPT_ROUNDS } },
  { shape: { retrieved: false, recentRounds: KEPT_ROUNDS }, step: "drop-retrieved" },
  { shape: { retrieved: false, recentRounds: 1 }, step: "keep-1-round" },
];

interface Attempt {
  prompt: BuiltPrompt;
  steps: ShrinkStep[];
  fits: boolean;
}

/**
 * Assembles the next request for a branch (seed 002 stages 1 and 3): compacts
 * first when the branch is due; over the limit, compacts (persisting only if
 * that gets the request under it), then drops retrieved memories and older raw
 * rounds; still over, returns `budget_exceeded` with the numbers. The same
 * stored state and options always give the same result.
 */
export async function assemblePrompt(db: Database, branchId: string, options: AssemblePromptOptions = {}): Promise<AssembledPrompt> {
  return retryOnStale(async () => {
    const compact = options.compact !== false;
    const current = typeof options.userTurn === "string" ? { role: "user" as const, content: options.userTurn } : (options.userTurn ?? null);
    const load = () => loadPromptState(db, branchId, options.settings, { lastUser: current === null });
    let state = await load();
    const { settings } = state;
    let compaction: CompactionResult | null = null;
    if (compact && (await isCompactionDue(db, state, settings))) {
      compaction = await compactBranch(db, branchId, { summarizer: options.summarizer, settings: options.settings });
      if (compaction) state = { ...(await load()), settings };
    }
    const tools = options.tools ?? state.conversation.tools ?? [];
    const counter = sharedCounter(settingsEncoding(settings));
    const budget = computeHistoryBudget({ contextWindow: settings.contextWindow, maxOutputTokens: settings.maxOutputTokens, system: systemMessagesOf(state), tools, counter });
    const limit = Math.min(settings.tokenBudget, budget.history);
    // Retrieval's artifacts name their reload handles: the few messages they stand for are read before building.
    const input = (of: PromptState): Promise<PromptInput> =>
      loadRetrievalMetadata(db, { state: of, settings, tools, current, query: queryOf(current, of) }, LADDER.map((rung) => rung.shape));
    const finish = (attempt: Attempt, status: AssembledPrompt["status"], exceeded?: AssembledPrompt["exceeded"]): AssembledPrompt => ({
      status,
      sections: attempt.prompt.sections,
      messages: exceeded ? [] : attempt.prompt.messages,
      tools,
      tokens: attempt.prompt.tokens,
      budget: { ...budget, limit, projected: attempt.prompt.tokens.history },
      compaction,
      ...(attempt.steps.length > 0 ? { shrunk: attempt.steps } : {}),
      ...(exceeded ? { exceeded } : {}),
    });

    const full = tryShape(await input(state), LADDER[0], [], limit);
    if (full.fits) return finish(full, compaction ? "compacted" : "ok");
    let compactedTokens: number | null = null;
    if (compact) {
      const plan = await planCompaction(db, state, settings, options.summarizer);
      if (plan) {
        const planned = climb(await input(await plannedState(db, state, plan)), limit);
        compactedTokens = planned.prompt.tokens.history;
        // Only a compaction that gets the request under the limit is persisted: a refused request leaves the branch as it was.
        if (planned.fits) {
          compaction = await persistPlan(db, state, plan, settings, "budget");
          state = { ...(await load()), settings };
        }
      }
    }
    const best = climb(await input(state), limit);
    if (best.fits) return finish(best, compaction ? "compacted" : "ok");
    return finish(best, "budget_exceeded", exceededOf(best, limit, settings.tokenBudget, budget, compactedTokens));
  });
}

/** The ladder from the top: the first attempt that fits, else the smallest (the last). */
function climb(input: PromptInput, limit: number): Attempt {
  let attempt = tryShape(input, LADDER[0], [], limit);
  for (const rung of LADDER.slice(1)) {
    if (attempt.fits) break;
    const next = tryShape(input, rung, rung.step ? [...attempt.steps, rung.step] : attempt.steps, limit);
    // A step that changes nothing (no retrieved sections, already that few rounds) is not reported.
    attempt = next.prompt.tokens.total === attempt.prompt.tokens.total ? { ...attempt, fits: next.fits } : next;
  }
  return attempt;
}

function tryShape(input: PromptInput, rung: (typeof LADDER)[number], steps: ShrinkStep[], limit: number): Attempt {
  const prompt = buildPrompt(input, rung.shape);
  return { prompt, steps, fits: prompt.tokens.history <= limit };
}

function exceededOf(best: Attempt, limit: number, tokenBudget: number, budget: HistoryBudgetResult, compactedTokens: number | null): NonNullable<AssembledPrompt["exceeded"]> {
  const tokens = best.prompt.tokens.history;
  const parts = [`the request needs ${tokens} tokens besides system messages and tools, but the limit is ${limit} (token budget ${tokenBudget}, window history ${budget.history})`];
  if (budget.overflow > 0) parts.push(`system messages, tools and the output reserve alone overflow the ${budget.contextWindow}-token window by ${budget.overflow}`);
  if (compactedTokens !== null) parts.push(`compacting first would still need ${compactedTokens}`);
  if (best.steps.length > 0) parts.push(`even ${best.steps.map((step) => STEP_WORDS[step]).join(" and ")}`);
  return { budget: limit, tokens, reason: `${parts.join("; ")}: no model call should be made` };
}

/** Retrieval's query: the current user turn, else the last user message of the history. */
function queryOf(current: Message | null, state: PromptState): string {
  if (current) return current.content ?? "";
  return state.lastUser;
}

/**
 * The state as it would be once `plan` is written: its summary (a placeholder
 * id) ends the chain, with the checkpoint it will get, so the trial prompt's
 * label has that checkpoint's version.
 */
async function plannedState(db: Database, state: PromptState, plan: CompactionPlan): Promise<PromptState> {
  const summary: SummaryRecord = {
    id: "(pending)",
    branchId: state.branch.id,
    fromPosition: plan.fromPosition,
    toPosition: plan.toPosition,
    text: plan.text,
    tokens: plan.tokens,
    extendsId: plan.previous?.id ?? null,
    createdAt: "",
  };
  const own = await getCheckpointOutlinesByBranchId(db, state.scope);
  const version = Math.max(0, ...own.map((checkpoint) => checkpoint.version)) + 1;
  return { ...state, chain: [...state.chain, summary], latest: summary, checkpoint: { id: "(pending)", version } };
}
