import { makeConfig, type ContextConfig } from "./config";
import { Context } from "./context";
import { defaultPipeline, type PipelineDependencies } from "./default-pipeline";
import type { Message, ToolDefinition } from "./messages";
import type { PipelineTrace, ProcessorPipeline } from "./pipeline";
import { STATE_KEYS, type TokenBudgetExceeded, type TokenBudgetTrimmed } from "./state";

export interface ProcessHistoryOptions extends PipelineDependencies {
  config?: ContextConfig;
  /** Defaults to `defaultPipeline(config, options)`. */
  pipeline?: ProcessorPipeline;
  tools?: readonly ToolDefinition[];
  /**
   * A context whose state the run reads (never writes); a fresh one otherwise.
   * The run is not registered among its children: it is never merged back.
   */
  parent?: Context;
  taskId?: string;
}

export interface ProcessHistoryResult {
  history: readonly Message[];
  trace: PipelineTrace;
  context: Context;
  offloaded: Readonly<Record<string, string>>;
  trimmed?: TokenBudgetTrimmed;
  exceeded?: TokenBudgetExceeded;
}

/**
 * Runs the `pre_llm_call` pipeline over a history in a fresh context and
 * returns what the model would be sent, with the trace.
 * @example const { history, trace } = await processHistory(messages, { config: makeConfig("navigator") })
 */
export async function processHistory(history: readonly Message[], options: ProcessHistoryOptions = {}): Promise<ProcessHistoryResult> {
  const config = options.config ?? options.parent?.config ?? makeConfig();
  // Not `parent.fork()`: a fork takes the parent's config, not the one asked for, and stays in
  // the parent's children, so re-running on every settings change would pile runs up there.
  const context = options.parent
    ? new Context(options.taskId ?? `${options.parent.taskId}/run`, { parent: options.parent, config })
    : new Context(options.taskId ?? "run", { config });
  context.state.set(STATE_KEYS.history, history);
  const pipeline = options.pipeline ?? defaultPipeline(config, options);
  const trace = await pipeline.fire("pre_llm_call", context, { tools: options.tools });
  return {
    history: context.state.get(STATE_KEYS.history) ?? [],
    trace,
    context,
    offloaded: context.state.get(STATE_KEYS.offloadedMessages) ?? {},
    trimmed: context.state.get(STATE_KEYS.tokenBudgetTrimmed),
    exceeded: context.state.get(STATE_KEYS.tokenBudgetExceeded),
  };
}
