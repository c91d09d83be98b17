import { addUsage, toUsage, ZERO_USAGE, type TokenUsage, type UsageInput } from "./usage";

/** One model call's token usage. */
export interface TokenStep extends TokenUsage {
  agentId: string;
  /** 0-based, per agent. */
  step: number;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

/**
 * Per-agent, per-step token usage records and totals.
 * @example tracker.addStep("planner", { promptTokens: 812, outputTokens: 64 })
 */
export class TokenTracker {
  private readonly steps: TokenStep[] = [];
  private readonly now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.now = options.now ?? (() => Date.now());
  }

  /** Records one call's usage: the engine's fields or a provider's usage object (E-U1). */
  addStep(agentId: string, usage: UsageInput): TokenStep {
    const step: TokenStep = {
      agentId,
      step: this.steps.filter((candidate) => candidate.agentId === agentId).length,
      timestamp: this.now(),
      ...toUsage(usage),
    };
    this.steps.push(step);
    return step;
  }

  /** An agent's steps in order. */
  getTrajectory(agentId: string): TokenStep[] {
    return this.steps.filter((step) => step.agentId === agentId);
  }

  agentUsage(agentId: string): TokenUsage {
    return this.getTrajectory(agentId).reduce<TokenUsage>((sum, step) => addUsage(sum, step), { ...ZERO_USAGE });
  }

  totalUsage(): TokenUsage {
    return this.steps.reduce<TokenUsage>((sum, step) => addUsage(sum, step), { ...ZERO_USAGE });
  }

  agents(): string[] {
    return [...new Set(this.steps.map((step) => step.agentId))];
  }

  allSteps(): TokenStep[] {
    return [...this.steps];
  }
}
