"use client";

import { useState } from "react";
import { RangeField, type RangeFieldProps } from "./range-field";
import styles from "./range-field.module.css";

export interface ThresholdFieldProps extends Omit<RangeFieldProps, "value" | "onChange" | "addon" | "disabledText"> {
  /** `null`: off (a threshold that never fires, no hard budget), or left to the model. */
  value: number | null;
  /** The value turned back on when no earlier value is remembered (the preset's, the model's). */
  fallback: number;
  /** The toggle's text: "disabled" for a threshold, "from model" for a value the model gives. */
  offLabel?: string;
  /** What the field shows while `null` ("off", "128,000 from gpt-4o"). */
  offText?: string;
  /** A number, or `null` when the toggle is ticked. */
  onChange(value: number | null): void;
}

/** A RangeField whose value may be `null`: the toggle sends `null`, unticking restores the last number. */
export function ThresholdField({ value, fallback, onChange, label, disabled, offLabel = "disabled", offText = "off", ...range }: ThresholdFieldProps) {
  const [remembered, setRemembered] = useState(value ?? fallback);
  if (value !== null && value !== remembered) setRemembered(value);
  const off = value === null;
  const shownWhenOff = off ? fallback : remembered;

  return (
    <RangeField
      {...range}
      label={label}
      value={off ? shownWhenOff : value}
      disabled={off || disabled}
      disabledText={offText}
      onChange={onChange}
      addon={
        <label className={styles.toggle}>
          <input
            type="checkbox"
            checked={off}
            disabled={disabled}
            aria-label={`${label}: ${offLabel}`}
            onChange={(event) => onChange(event.target.checked ? null : remembered)}
          />
          <span aria-hidden="true">{offLabel}</span>
        </label>
      }
    />
  );
}
