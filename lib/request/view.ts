import type {
  BudgetVerdict,
  EncodingName,
  HistoryRepair,
  Message,
  PersistedSummary,
  RequestSectionKind,
  RetrievedMemory,
  ToolDefinition,
  TraceStep,
} from "@/lib/context/light";
import type { CompactionResult } from "@/lib/memory";
import type { ResolvedSettings } from "@/lib/settings";
import { chatRequestBody, type ChatRequestBody } from "./body";

/** A trace step without the histories it received and returned (those are asked for one step at a time). */
export type StepSummary = Omit<TraceStep, "historyBefore" | "historyAfter">;

/** A section of the request by its messages' indices. */
export interface SectionView {
  kind: RequestSectionKind;
  label: string;
  indices: number[];
  tokens: number;
}

/** How the request's tokens were counted. */
export interface TokenizerView {
  model: string;
  /** How the model name matched the catalogue. */
  match: "exact" | "prefix" | "fallback";
  encoding: EncodingName;
  exact: boolean;
  approximation?: string;
}

/**
 * The next request as every surface shows it (the playground's header, After
 * view, budget bar and Prompt tab; the prompt API; the recorder): one shape,
 * made by one function from the one builder's output.
 */
export interface RequestView {
  model: string;
  maxTokens: number;
  messages: Message[];
  tools: ToolDefinition[];
  sections: SectionView[];
  steps: StepSummary[];
  verdict: BudgetVerdict;
  summary: PersistedSummary | null;
  retrieved: RetrievedMemory[];
  /** Messages the processors received: the persisted memory, the raw history and the current turn. */
  candidate: number;
  /** Broken tool pairs left out of the raw history before building. */
  repairs: HistoryRepair[];
  /** Handles this request offloaded. */
  offloaded: string[];
  tokenizer: TokenizerView;
}

/** What `requestView` reads of a built request. */
export interface ViewableRequest {
  model: string;
  maxTokens: number;
  messages: Message[];
  tools: ToolDefinition[];
  sections: readonly { kind: RequestSectionKind; label: string; indices: number[]; tokens: number }[];
  trace: { steps: readonly TraceStep[] };
  verdict: BudgetVerdict;
  assembly: { summary: PersistedSummary | null; retrieved: RetrievedMemory[]; candidate: readonly Message[] };
  repairs: HistoryRepair[];
  offloaded: Readonly<Record<string, string>>;
}

export function stepSummary(step: TraceStep): StepSummary {
  // Field by field: a step's whole histories are made when first read (E-PL7), and a summary needs neither.
  const { processor, messagesBefore, messagesAfter, tokensBefore, tokensAfter, ms, stateKeys, effects } = step;
  return { processor, messagesBefore, messagesAfter, tokensBefore, tokensAfter, ms, stateKeys, effects };
}

export function tokenizerView(settings: ResolvedSettings): TokenizerView {
  return {
    model: settings.policy.model,
    match: settings.model.match,
    encoding: settings.policy.encoding,
    exact: settings.exact,
    ...(settings.approximation ? { approximation: settings.approximation } : {}),
  };
}

export function requestView(request: ViewableRequest, settings: ResolvedSettings): RequestView {
  return {
    model: request.model,
    maxTokens: request.maxTokens,
    messages: request.messages,
    tools: request.tools,
    sections: request.sections.map(({ kind, label, indices, tokens }) => ({ kind, label, indices, tokens })),
    steps: request.trace.steps.map(stepSummary),
    verdict: request.verdict,
    summary: request.assembly.summary,
    retrieved: request.assembly.retrieved,
    candidate: request.assembly.candidate.length,
    repairs: request.repairs,
    offloaded: Object.keys(request.offloaded),
    tokenizer: tokenizerView(settings),
  };
}

/** The exact JSON body of the request a view shows. */
export function viewBody(view: Pick<RequestView, "model" | "messages" | "tools" | "maxTokens">): ChatRequestBody {
  return chatRequestBody(view);
}

/** The next request as the prompt API reports it. */
export interface PromptResponse extends RequestView {
  /** "compacted": this call persisted a compaction first; "budget_exceeded": the request does not fit and is not sent. */
  status: "ok" | "compacted" | "budget_exceeded";
  compaction: CompactionResult | null;
  /** History length the request was built from. */
  length: number;
}
