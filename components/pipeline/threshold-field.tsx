"use client";

import { useState } from "react";
import { RangeField, type RangeFieldProps } from "./range-field";
import styles from "./range-field.module.css";

export interface ThresholdFieldProps extends Omit<RangeFieldProps, "value" | "onChange" | "addon" | "disabledText"> {
  /** `null` is disabled: the threshold never fires. */
  value: number | null;
  /** The value turned back on when no earlier value is remembered (the preset's, say). */
  fallback: number;
  /** A number, or `null` when the "disabled" toggle is ticked. */
  onChange(value: number | null): void;
}

/** A RangeField for a threshold that can be switched off: the toggle sends `null`, unticking restores the last value. */
export function ThresholdField({ value, fallback, onChange, label, disabled, ...range }: ThresholdFieldProps) {
  const [remembered, setRemembered] = useState(value ?? fallback);
  if (value !== null && value !== remembered) setRemembered(value);
  const off = value === null;

  return (
    <RangeField
      {...range}
      label={label}
      value={value ?? remembered}
      disabled={off || disabled}
      disabledText="off"
      onChange={onChange}
      addon={
        <label className={styles.toggle}>
          <input type="checkbox" checked={off} disabled={disabled} aria-label={`Disable ${label.toLowerCase()}`} onChange={(event) => onChange(event.target.checked ? null : remembered)} />
          <span aria-hidden="true">disabled</span>
        </label>
      }
    />
  );
}
