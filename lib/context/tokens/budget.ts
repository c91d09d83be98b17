import type { Message, ToolDefinition } from "../messages";
import type { TiktokenCounter } from "./counter";
import { sharedCounter } from "./counter";

/** Used when no context window is configured (E-B1). */
export const DEFAULT_CONTEXT_WINDOW = 131_072;

export interface HistoryBudgetOptions {
  /** The model's input capacity; missing or 0 falls back to 131072. */
  contextWindow?: number | null;
  /** The most the model may write back: reserved, never given to history. */
  maxOutputTokens?: number | null;
  /** The system prompt, as text or as system messages. */
  system?: string | readonly Message[] | null;
  tools?: readonly ToolDefinition[] | null;
  counter?: TiktokenCounter;
}

/** The window split in tokens (E-B1): `history = contextWindow - system - tools - reserve`. */
export interface HistoryBudgetResult {
  contextWindow: number;
  system: number;
  tools: number;
  reserve: number;
  /** What is left for the conversation history; 0 when the fixed parts already overflow. */
  history: number;
  /** Tokens by which the fixed parts alone overflow the window (0 when they fit). */
  overflow: number;
}

/**
 * The one place the budget arithmetic lives (E-B1): context window and
 * max output tokens are separate settings, and the output reserve is never history.
 * @example computeHistoryBudget({ contextWindow: 128_000, maxOutputTokens: 4_096, system, tools })
 */
export function computeHistoryBudget(options: HistoryBudgetOptions): HistoryBudgetResult {
  const counter = options.counter ?? sharedCounter();
  const contextWindow = options.contextWindow && options.contextWindow > 0 ? options.contextWindow : DEFAULT_CONTEXT_WINDOW;
  const reserve = Math.max(0, options.maxOutputTokens ?? 0);
  const system = countSystem(options.system, counter);
  const tools = counter.countTools(options.tools ?? undefined);
  const remaining = contextWindow - system - tools - reserve;
  return { contextWindow, system, tools, reserve, history: Math.max(0, remaining), overflow: Math.max(0, -remaining) };
}

function countSystem(system: HistoryBudgetOptions["system"], counter: TiktokenCounter): number {
  if (!system) return 0;
  if (typeof system === "string") return counter.countMessage({ role: "system", content: system });
  return system.reduce((sum, message) => sum + counter.countMessage(message), 0);
}
