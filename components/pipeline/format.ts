import type { RequestTokens } from "@/lib/context/light";

const integer = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

/** `12,345`: every count the pipeline views print. */
export function formatNumber(value: number): string {
  return integer.format(value);
}

/** `12.3K`: axis ticks and tight labels. */
export function formatCompact(value: number): string {
  return compact.format(value);
}

/** `+1,200`, `−3,400` (a real minus sign) or `0`. */
export function formatDelta(before: number, after: number): string {
  if (before === after) return "0";
  return `${after > before ? "+" : "−"}${formatNumber(Math.abs(after - before))}`;
}

/** Which way a count moved: drives the delta colours. */
export function changeDirection(before: number, after: number): "down" | "up" | "none" {
  return after < before ? "down" : after > before ? "up" : "none";
}

export function formatMs(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : formatNumber(ms);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/** "≈ " before a count made with a tokenizer that stands in for the model's own, else nothing. */
export function approximately(approximate: boolean): string {
  return approximate ? "≈ " : "";
}

/**
 * How a request's total is made, term by term, as the toolbar, the trace and
 * the Prompt tab all say it: "44 in messages + 3 reply priming + 120 in tool
 * definitions = 167". The reply priming is a term of its own (E-RB4), never a
 * silent difference between two totals.
 */
export function sentTerms(tokens: RequestTokens, approximate = false): string {
  const terms = [`${formatNumber(tokens.system + tokens.history - tokens.priming)} in messages`];
  if (tokens.priming > 0) terms.push(`${formatNumber(tokens.priming)} reply priming`);
  if (tokens.tools > 0) terms.push(`${formatNumber(tokens.tools)} in tool definitions`);
  return `${approximately(approximate)}${terms.join(" + ")} = ${formatNumber(tokens.total)}`;
}
