import type { Context } from "../context";
import { buildPipeline } from "../default-pipeline";
import type { HandleFactory } from "../handles";
import { indexOf } from "../history/index-of";
import { OFFLOAD_MARKER_PATTERN } from "../handles";
import type { Message, ToolDefinition } from "../messages";
import type { PipelineTrace } from "../pipeline";
import { processHistory } from "../run";
import type { Summarizer } from "../summarizer";
import { getContextTools } from "../tools";
import { coveredBySummary, retrievedMessage, summaryMessage, type PersistedMemory, type PersistedSummary, type RetrievedMemory } from "./memory";
import { policyCounter, policyToEngine, type RequestPolicy } from "./policy";
import { requestSections, type RequestSection } from "./sections";
import { budgetVerdict, requestTokens, type BudgetVerdict } from "./verdict";

/** What the next request is built from. */
export interface BuildRequestOptions {
  /** The raw history: all of it, or (with `memory.summary`) what follows the summary. */
  history: readonly Message[];
  policy: RequestPolicy;
  /** Persisted summaries and retrieved memories (server-side state, passed in). */
  memory?: PersistedMemory;
  /** A new turn not in `history` yet (the user's next message). */
  current?: Message | null;
  tools?: readonly ToolDefinition[];
  /** Default: the engine's offline extractive summarizer. */
  summarizer?: Summarizer;
  createHandle?: HandleFactory;
  /** A context whose state the run reads (never writes), as `processHistory`'s. */
  parent?: Context;
  taskId?: string;
  now?: () => number;
}

/** What the assembly put in front of the processors. */
export interface RequestAssembly {
  summary: PersistedSummary | null;
  retrieved: RetrievedMemory[];
  /** Retrieved memories left out because the summary already covers them (E-RB8). */
  covered: RetrievedMemory[];
  /** The candidate history the processors received. */
  candidate: readonly Message[];
}

/** The next request exactly as it will be sent, with how it came to be. */
export interface BuiltRequest {
  model: string;
  /** The reply's limit (`max_tokens`). */
  maxTokens: number;
  messages: Message[];
  /** The request's tools, `reload_offloaded` included when offloaded content is sent (E-RB5). */
  tools: ToolDefinition[];
  sections: RequestSection[];
  assembly: RequestAssembly;
  /** One step per processor that ran, in order. */
  trace: PipelineTrace;
  verdict: BudgetVerdict;
  /** Handle → original content of what this request offloaded. */
  offloaded: Readonly<Record<string, string>>;
  context: Context;
}

const RELOAD_TOOL = getContextTools().find((tool) => tool.definition.function.name === "reload_offloaded")!.definition;

const toolLists = new WeakMap<readonly ToolDefinition[], { plain: ToolDefinition[]; withReload?: ToolDefinition[] }>();
const NO_TOOLS: readonly ToolDefinition[] = Object.freeze([]);

/**
 * The request's tool list: the same array for the same tools on every build,
 * so its count stays cached (E-T6) and a replay never measures it twice.
 */
function toolList(tools: readonly ToolDefinition[], reload: boolean): ToolDefinition[] {
  let lists = toolLists.get(tools);
  if (!lists) {
    lists = { plain: [...tools] };
    toolLists.set(tools, lists);
  }
  if (!reload) return lists.plain;
  lists.withReload ??= tools.some((tool) => tool.function.name === RELOAD_TOOL.function.name) ? lists.plain : [...tools, RELOAD_TOOL];
  return lists.withReload;
}

/** Whether any message carries an offload marker: this request's offloads, or one a summary or retrieved memory holds (E-RB5). */
function carriesMarker(messages: readonly Message[]): boolean {
  return messages.some((message) => message.content !== null && message.content.search(OFFLOAD_MARKER_PATTERN) !== -1);
}

/**
 * Builds the next request (E-RB1–E-RB5, E-RB8): the persisted memory first (system
 * messages of the summarised part, the latest summary, retrieved memories
 * it does not cover),
 * then the raw history and the current turn, as one candidate history; the
 * policy's enabled processors run on it in their order; the one budget
 * verdict says whether it may be sent. Every surface that shows or sends a
 * request calls this, so they cannot disagree.
 * @example const request = await buildRequest({ history, policy, tools })
 */
export async function buildRequest(options: BuildRequestOptions): Promise<BuiltRequest> {
  const { policy, memory = {} } = options;
  const summary = memory.summary ?? null;
  const offered = memory.retrieved ?? [];
  const covered = offered.filter((entry) => coveredBySummary(entry, summary));
  const retrieved = offered.filter((entry) => !covered.includes(entry)).slice(0, policy.retrievedMemories);
  const current = options.current ?? null;
  const persisted = summary ? summaryMessage(summary) : null;
  const candidate: Message[] = [
    ...(summary ? (memory.system ?? []) : []),
    ...(persisted ? [persisted] : []),
    ...retrieved.map(retrievedMessage),
    ...options.history,
    ...(current ? [current] : []),
  ];
  const { config, spec, dependencies } = policyToEngine(policy);
  const pipeline = buildPipeline(spec, config, { ...dependencies, summarizer: options.summarizer, createHandle: options.createHandle, now: options.now });
  const baseTools = options.tools ?? NO_TOOLS;
  const mayOffload = spec.some((entry) => entry.enabled && entry.kind === "message_offloader");
  // E-RB5: the budget is enforced with the reload tool counted whenever a marker may be sent, so adding it never breaks the fit.
  const budgetTools = toolList(baseTools, mayOffload || carriesMarker(candidate));
  const result = await processHistory(candidate, { config, pipeline, tools: budgetTools, parent: options.parent, taskId: options.taskId });
  const messages = [...result.history];
  const tools = toolList(baseTools, carriesMarker(messages));
  const counter = policyCounter(policy);
  // E-T6/E-I3: a message's cached count, else the processed history's index, which has counted what the processors wrote: read, never encode again.
  const index = indexOf(result.history);
  const tokensOf = (message: Message, position: number) => counter.cachedCount(message) ?? index.tokensAt(counter, position);
  const verdict = budgetVerdict(requestTokens(messages, tools, counter, tokensOf), {
    contextWindow: policy.contextWindow,
    reserve: policy.maxOutputTokens,
    budget: policy.tokenBudget,
  });
  return {
    model: policy.model,
    maxTokens: policy.maxOutputTokens,
    messages,
    tools,
    sections: requestSections(messages, tools, counter, { current, summary, summaryMessage: persisted, retrieved }, tokensOf),
    assembly: { summary, retrieved, covered, candidate },
    trace: result.trace,
    verdict,
    offloaded: result.offloaded,
    context: result.context,
  };
}
