/** How a slider maps its track onto values: evenly, or by ratio for ranges spanning orders of magnitude. */
export type RangeScale = "linear" | "log";

/** Track positions of a log slider: consecutive positions differ by ~2.5% on a 500–200k range. */
export const LOG_POSITIONS = 240;

export interface RangeBounds {
  min: number;
  max: number;
  step: number;
  scale: RangeScale;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The integer typed text stands for, unclamped; `null` for text that is not a number. */
export function parseInteger(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? Math.round(value) : null;
}

/** The slider position that shows `value`. */
export function toSliderPosition(value: number, bounds: RangeBounds): number {
  const clamped = clamp(value, bounds.min, bounds.max);
  if (bounds.scale === "linear") return clamped;
  return Math.round((LOG_POSITIONS * Math.log(clamped / bounds.min)) / Math.log(bounds.max / bounds.min));
}

/** The value a slider position stands for: snapped to the step, or to three significant digits on a log scale. */
export function fromSliderPosition(position: number, bounds: RangeBounds): number {
  if (bounds.scale === "linear") return clamp(Math.round(position / bounds.step) * bounds.step, bounds.min, bounds.max);
  if (position <= 0) return bounds.min;
  if (position >= LOG_POSITIONS) return bounds.max;
  const raw = bounds.min * (bounds.max / bounds.min) ** (position / LOG_POSITIONS);
  return clamp(significant(raw, 3), bounds.min, bounds.max);
}

function significant(value: number, digits: number): number {
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(value)) - digits + 1);
  return Math.round(value / magnitude) * magnitude;
}
