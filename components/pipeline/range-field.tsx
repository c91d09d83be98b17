"use client";

import { useId, useState, type ReactNode } from "react";
import { formatNumber } from "./format";
import { clamp, fromSliderPosition, LOG_POSITIONS, parseInteger, toSliderPosition, type RangeScale } from "./range-scale";
import styles from "./range-field.module.css";

export interface RangeFieldProps {
  /** Visible label; also the accessible name of both the slider and the number input. */
  label: string;
  /** The current value; shown even when outside `min`..`max` (the slider then sits at its end). */
  value: number;
  min: number;
  max: number;
  /** Step of a linear slider and of the number input's arrows (default 1). */
  step?: number;
  /** `log` spreads ranges spanning orders of magnitude (500–200k) evenly along the track. */
  scale?: RangeScale;
  /** Unit printed after the value ("tokens", "chars"). */
  unit?: string;
  /** One line under the control, also its accessible description. */
  hint?: string;
  disabled?: boolean;
  /** Set when the value differs from the mode preset: shows a marker naming the preset value. */
  presetValue?: number | null;
  /** Extra control beside the label (the "disabled" toggle of a threshold). */
  addon?: ReactNode;
  /** Text shown instead of the value while disabled ("off"). */
  disabledText?: string;
  /**
   * Fires on every slider movement and every keystroke that parses, with an
   * integer clamped to `min`..`max`. A typed value under `min` waits for Enter
   * or blur (typing 5,000 passes through 5), then fires clamped.
   */
  onChange(value: number): void;
}

/** A labelled range slider paired with a number input; both report parsed, clamped numbers. */
export function RangeField({
  label,
  value,
  min,
  max,
  step = 1,
  scale = "linear",
  unit,
  hint,
  disabled,
  presetValue,
  addon,
  disabledText,
  onChange,
}: RangeFieldProps) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const bounds = { min, max, step, scale };
  const position = toSliderPosition(value, bounds);
  const shown = disabled && disabledText ? disabledText : `${formatNumber(value)}${unit ? ` ${unit}` : ""}`;

  function slide(next: number) {
    let result = fromSliderPosition(next, bounds);
    // A log track rounds small values to integers: make every keyboard step still move the value.
    if (result === value && next !== position) result = clamp(value + Math.sign(next - position) * step, min, max);
    if (result !== value) onChange(result);
  }

  function type(text: string) {
    setDraft(text);
    const parsed = parseInteger(text);
    if (parsed !== null && parsed >= min) onChange(Math.min(parsed, max));
  }

  function commit() {
    const parsed = draft === null ? null : parseInteger(draft);
    if (parsed !== null && parsed < min) onChange(min);
    setDraft(null);
  }

  return (
    <div className={styles.field} data-disabled={disabled || undefined}>
      <div className={styles.header}>
        <label className={styles.label} htmlFor={`${id}-slider`}>
          {label}
        </label>
        {presetValue !== undefined ? (
          <span className={styles.customised} title={`Preset value: ${presetValue === null ? "off" : formatNumber(presetValue)}`}>
            customised (preset {presetValue === null ? "off" : formatNumber(presetValue)})
          </span>
        ) : null}
        {addon}
        <output className={styles.value} htmlFor={`${id}-slider ${id}-number`} aria-live="off">
          {shown}
        </output>
      </div>
      <div className={styles.controls}>
        <input
          id={`${id}-slider`}
          className={styles.slider}
          type="range"
          min={scale === "log" ? 0 : min}
          max={scale === "log" ? LOG_POSITIONS : max}
          step={scale === "log" ? 1 : step}
          value={position}
          disabled={disabled}
          aria-valuetext={shown}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(event) => slide(Number(event.target.value))}
        />
        <input
          id={`${id}-number`}
          className={styles.number}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={step}
          value={draft ?? String(value)}
          disabled={disabled}
          aria-label={label}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(event) => type(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === "Enter") commit();
          }}
        />
      </div>
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
