"use client";

import { MODE_PRESETS, type EncodingName } from "@/lib/context/light";
import type { ModelEntry } from "@/lib/models";
import { mergeSettings, settingsWithModel, type ResolvedSettings, type Settings } from "@/lib/settings";
import { formatNumber } from "./format";
import { ModelField } from "./model-field";
import { ModePresets } from "./mode-presets";
import { ProcessorList } from "./processor-list";
import { RangeField } from "./range-field";
import { NULLABLE_FIELDS, NUMERIC_FIELDS, presetDifferences, type NullableSettingKey, type NumericSettingKey } from "./settings-fields";
import { StrategyFields } from "./strategy-fields";
import { ThresholdField } from "./threshold-field";
import styles from "./threshold-panel.module.css";

export interface ThresholdPanelProps {
  settings: Settings;
  /** The settings made concrete with the model catalogue (what "from model" shows). */
  resolved: ResolvedSettings;
  catalogue: readonly ModelEntry[];
  /**
   * The whole new settings after any edit. Fires continuously while a slider
   * moves (the workspace re-runs on each; `PipelineClient.run` coalesces).
   */
  onChange(settings: Settings): void;
  /** Locks every control (no conversation loaded, say). */
  disabled?: boolean;
}

const SIZE_FIELDS: readonly NumericSettingKey[] = ["maxMessageSize", "maxToolResultSize"];
const THRESHOLDS: readonly ("summaryThreshold" | "offloadThreshold")[] = ["summaryThreshold", "offloadThreshold"];
const FROM_MODEL: readonly ("contextWindow" | "maxOutputTokens")[] = ["contextWindow", "maxOutputTokens"];

/** Every setting of the next request: mode presets, rounds and thresholds, sizes, budget, model and window, request options, processors and the strategies' settings. */
export function ThresholdPanel({ settings, resolved, catalogue, onChange, disabled }: ThresholdPanelProps) {
  const differences = presetDifferences(settings);
  const customised = new Map(differences.map((difference) => [difference.key, difference.preset]));
  const update = (changes: Partial<Settings>) => onChange(mergeSettings(settings, changes));

  const numeric = (key: NumericSettingKey) => (
    <RangeField
      key={key}
      {...NUMERIC_FIELDS[key]}
      value={settings[key]}
      disabled={disabled}
      presetValue={key === "historyRounds" ? customised.get(key) : undefined}
      onChange={(value) => update({ [key]: value })}
    />
  );
  const nullable = (key: NullableSettingKey, fallback: number, offText: string, presetValue?: number | null) => {
    const { fallback: _default, ...field } = NULLABLE_FIELDS[key];
    return (
      <ThresholdField
        key={key}
        {...field}
        value={settings[key]}
        fallback={fallback}
        offText={offText}
        disabled={disabled}
        presetValue={presetValue}
        onChange={(value) => update({ [key]: value })}
      />
    );
  };

  return (
    <form className={styles.panel} aria-label="Pipeline settings" onSubmit={(event) => event.preventDefault()}>
      <ModePresets
        mode={settings.mode}
        disabled={disabled}
        differences={differences}
        onSelect={(mode) => update({ mode })}
        onRestore={() => update({ ...MODE_PRESETS[settings.mode] })}
      />
      <fieldset className={styles.group} disabled={disabled}>
        <legend className={styles.legend}>Rounds and thresholds</legend>
        {numeric("historyRounds")}
        {THRESHOLDS.map((key) => nullable(key, MODE_PRESETS[settings.mode][key] ?? NULLABLE_FIELDS[key].fallback, "off", customised.get(key)))}
      </fieldset>
      <fieldset className={styles.group} disabled={disabled}>
        <legend className={styles.legend}>Offload sizes</legend>
        {SIZE_FIELDS.map(numeric)}
      </fieldset>
      <fieldset className={styles.group} disabled={disabled}>
        <legend className={styles.legend}>Model, window and budget</legend>
        <ModelField
          model={settings.model}
          encoding={settings.encoding}
          resolved={resolved}
          catalogue={catalogue}
          disabled={disabled}
          onChooseModel={(model) => onChange(settingsWithModel(settings, model))}
          onChangeEncoding={(encoding: EncodingName | null) => update({ encoding })}
        />
        {FROM_MODEL.map((key) => nullable(key, resolved.policy[key], `${formatNumber(resolved.policy[key])} from the model`))}
        {nullable("tokenBudget", settings.tokenBudget ?? resolved.policy.contextWindow - resolved.policy.maxOutputTokens, "none: the window limits")}
      </fieldset>
      <fieldset className={styles.group} disabled={disabled}>
        <legend className={styles.legend}>Request</legend>
        <label className={styles.checkbox}>
          <input type="checkbox" checked={settings.reloadTool} onChange={(event) => update({ reloadTool: event.target.checked })} />
          <span>
            Offer reload_offloaded
            <span className={styles.checkboxHint}>
              When a request carries offloaded content, the model gets a tool to read it back. Off: nothing is offloaded.
            </span>
          </span>
        </label>
        {numeric("retrievedMemories")}
        <label className={styles.checkbox}>
          <input type="checkbox" checked={settings.applyPipeline} onChange={(event) => update({ applyPipeline: event.target.checked })} />
          <span>
            Recording proxy applies these settings
            <span className={styles.checkboxHint}>Agents recorded through the proxy then send the request built here, not their own history.</span>
          </span>
        </label>
      </fieldset>
      <ProcessorList processors={settings.processors} disabled={disabled} onChange={(processors) => update({ processors })} />
      <StrategyFields processors={settings.processors} tuning={settings.tuning} disabled={disabled} onChange={(tuning) => update({ tuning })} />
    </form>
  );
}
