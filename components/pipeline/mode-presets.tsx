"use client";

import { useId } from "react";
import { AUTOMATION_MODES, MODE_PRESETS, type AutomationMode } from "@/lib/context/light";
import { formatNumber } from "./format";
import { describePreset, type PresetDifference } from "./settings-fields";
import styles from "./threshold-panel.module.css";

const MODE_LABELS: Readonly<Record<AutomationMode, string>> = { pilot: "Pilot", copilot: "Copilot", navigator: "Navigator" };

export interface ModePresetsProps {
  mode: AutomationMode;
  /** The preset-decided settings that no longer hold the preset's value (`presetDifferences`). */
  differences: readonly PresetDifference[];
  /** A mode was picked: the caller applies `settingsForMode(mode, settings)`. */
  onSelect(mode: AutomationMode): void;
  /** Put the current mode's preset values back. */
  onRestore(): void;
  disabled?: boolean;
}

const show = (value: number | null) => (value === null ? "off" : formatNumber(value));

/** The three automation modes as a radio group, and whether the current values were customised away from the preset. */
export function ModePresets({ mode, differences, onSelect, onRestore, disabled }: ModePresetsProps) {
  const name = useId();
  return (
    <fieldset className={styles.modes} disabled={disabled}>
      <legend className={styles.legend}>Mode preset</legend>
      <div className={styles.segmented}>
        {AUTOMATION_MODES.map((candidate) => (
          <label key={candidate} className={styles.segment} data-checked={candidate === mode || undefined} title={describePreset(MODE_PRESETS[candidate])}>
            <input
              type="radio"
              name={name}
              value={candidate}
              checked={candidate === mode}
              disabled={disabled}
              onChange={() => onSelect(candidate)}
              className={styles.visuallyHidden}
            />
            {MODE_LABELS[candidate]}
          </label>
        ))}
      </div>
      <p className={styles.presetStatus} role="status">
        {differences.length === 0 ? (
          <>
            {MODE_LABELS[mode]} preset: {describePreset(MODE_PRESETS[mode])}
          </>
        ) : (
          <>
            <span className={styles.customisedBadge}>Customised</span> {MODE_LABELS[mode]} preset with{" "}
            {differences.map((difference) => `${difference.label.toLowerCase()} ${show(difference.value)} (preset ${show(difference.preset)})`).join(", ")}{" "}
            <button type="button" className={styles.linkButton} onClick={onRestore}>
              Restore {MODE_LABELS[mode].toLowerCase()} preset
            </button>
          </>
        )}
      </p>
    </fieldset>
  );
}
