/** Token usage of model calls. */
export interface TokenUsage {
  promptTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export const ZERO_USAGE: Readonly<TokenUsage> = Object.freeze({ promptTokens: 0, outputTokens: 0, totalTokens: 0 });

/** Normalises a partial usage record; total defaults to prompt + output. */
export function toUsage(usage: Partial<TokenUsage>): TokenUsage {
  const promptTokens = usage.promptTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  return { promptTokens, outputTokens, totalTokens: usage.totalTokens ?? promptTokens + outputTokens };
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

export function subtractUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens - b.promptTokens,
    outputTokens: a.outputTokens - b.outputTokens,
    totalTokens: a.totalTokens - b.totalTokens,
  };
}
