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
