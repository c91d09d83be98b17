"use client";

import { MODE_PRESETS } from "@/lib/context/light";
import { settingsForMode, type PlaygroundSettings } from "@/lib/playground/settings";
import { ModelField } from "./model-field";
import { ModePresets } from "./mode-presets";
import { ProcessorList } from "./processor-list";
import { RangeField } from "./range-field";
import { NUMERIC_FIELDS, presetDifferences, THRESHOLD_FIELDS, type NumericSettingKey, type ThresholdSettingKey } from "./settings-fields";
import { ThresholdField } from "./threshold-field";
import styles from "./threshold-panel.module.css";

export interface ThresholdPanelProps {
  settings: PlaygroundSettings;
  /**
   * The whole new settings after any edit. Fires continuously while a slider
   * moves (the workspace re-runs the pipeline on each; `PipelineClient.run` coalesces).
   */
  onChange(settings: PlaygroundSettings): void;
  /** Model names suggested in the model field (default `MODEL_SUGGESTIONS`). */
  modelSuggestions?: readonly string[];
  /** Locks every control (no conversation loaded, say). */
  disabled?: boolean;
}

const WINDOW_FIELDS: readonly NumericSettingKey[] = ["tokenBudget", "contextWindow", "maxOutputTokens"];
const SIZE_FIELDS: readonly NumericSettingKey[] = ["maxMessageSize", "maxToolResultSize"];
const THRESHOLDS: readonly ThresholdSettingKey[] = ["summaryThreshold", "offloadThreshold"];

/** Every engine setting of the playground: mode presets, rounds and thresholds, sizes, budget and window, model, processors. */
export function ThresholdPanel({ settings, onChange, modelSuggestions, disabled }: ThresholdPanelProps) {
  const differences = presetDifferences(settings);
  const customised = new Map(differences.map((difference) => [difference.key, difference.preset]));
  const update = (patch: Partial<PlaygroundSettings>) => onChange({ ...settings, ...patch });

  const numeric = (key: NumericSettingKey) => {
    const field = NUMERIC_FIELDS[key];
    return <RangeField key={key} {...field} value={settings[key]} disabled={disabled} presetValue={key === "historyRounds" ? customised.get(key) : undefined} onChange={(value) => update({ [key]: value })} />;
  };

  return (
    <form className={styles.panel} aria-label="Pipeline settings" onSubmit={(event) => event.preventDefault()}>
      <ModePresets mode={settings.mode} disabled={disabled} differences={differences} onSelect={(mode) => onChange(settingsForMode(mode, settings))} onRestore={() => onChange(settingsForMode(settings.mode, settings))} />
      <fieldset className={styles.group} disabled={disabled}>
        <legend className={styles.legend}>Rounds and thresholds</legend>
        {numeric("historyRounds")}
        {THRESHOLDS.map((key) => {
          const { fallback, ...field } = THRESHOLD_FIELDS[key];
          return (
            <ThresholdField
              key={key}
              {...field}
              value={settings[key]}
              disabled={disabled}
              fallback={MODE_PRESETS[settings.mode][key] ?? fallback}
              presetValue={customised.get(key)}
              onChange={(value) => update({ [key]: value })}
            />
          );
        })}
      </fieldset>
      <fieldset className={styles.group} disabled={disabled}>
        <legend className={styles.legend}>Offload sizes</legend>
        {SIZE_FIELDS.map(numeric)}
      </fieldset>
      <fieldset className={styles.group} disabled={disabled}>
        <legend className={styles.legend}>Budget and window</legend>
        {WINDOW_FIELDS.map(numeric)}
        <ModelField
          model={settings.model}
          encoding={settings.encoding}
          suggestions={modelSuggestions}
          disabled={disabled}
          onChange={({ model, encoding }) => {
            const { encoding: _previous, ...rest } = settings;
            onChange(encoding ? { ...rest, model, encoding } : { ...rest, model });
          }}
        />
      </fieldset>
      <ProcessorList processors={settings.processors} disabled={disabled} onChange={(processors) => update({ processors })} />
    </form>
  );
}
