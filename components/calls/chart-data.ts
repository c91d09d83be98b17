import type { CallSummary, CallTokens } from "@/lib/calls/types";

export type TokenSegmentKey = "system" | "tools" | "history" | "new";

/** Bottom to top: what stays the same from call to call first, what each call adds last. */
export const SEGMENT_KEYS: readonly TokenSegmentKey[] = ["system", "tools", "history", "new"];

export const SEGMENT_LABELS: Readonly<Record<TokenSegmentKey, string>> = { system: "system", tools: "tools", history: "history", new: "new turns" };

export interface ChartSegment {
  key: TokenSegmentKey;
  tokens: number;
  y: number;
  height: number;
}

export interface ChartBar {
  callId: string;
  /** 1-based, as the table numbers calls. */
  number: number;
  x: number;
  width: number;
  failed: boolean;
  tokens: CallTokens | null;
  segments: ChartSegment[];
}

export interface CallChartLayout {
  width: number;
  height: number;
  /** Tokens of the tallest bar: the top of the scale. */
  max: number;
  bars: ChartBar[];
}

export interface CallChartOptions {
  /** Plot height in px (default 120). */
  height?: number;
  /** Bar width and gap in px (default 14 and 4). */
  barWidth?: number;
  gap?: number;
  /** The first call's number (a later page starts past 1). */
  firstNumber?: number;
}

/** Stacked bars of each call's input tokens, split as counted (system, tools, history, new turns); empty segments are left out. */
export function layoutCallChart(calls: readonly CallSummary[], options: CallChartOptions = {}): CallChartLayout {
  const height = options.height ?? 120;
  const barWidth = options.barWidth ?? 14;
  const gap = options.gap ?? 4;
  const max = Math.max(1, ...calls.map((call) => call.tokens?.total ?? 0));
  const bars = calls.map((call, index): ChartBar => {
    const segments: ChartSegment[] = [];
    let top = height;
    for (const key of SEGMENT_KEYS) {
      const tokens = call.tokens?.[key] ?? 0;
      if (tokens <= 0) continue;
      const segmentHeight = (tokens / max) * height;
      top -= segmentHeight;
      segments.push({ key, tokens, y: top, height: segmentHeight });
    }
    return {
      callId: call.id,
      number: (options.firstNumber ?? 1) + index,
      x: gap + index * (barWidth + gap),
      width: barWidth,
      failed: call.outcome === "failed",
      tokens: call.tokens,
      segments,
    };
  });
  return { width: gap + calls.length * (barWidth + gap), height, max, bars };
}
