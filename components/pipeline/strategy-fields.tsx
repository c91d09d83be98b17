"use client";

import { useState } from "react";
import { STRATEGY_DEFAULTS, STRATEGY_PROCESSOR_KINDS, type StrategyProcessorKind } from "@/lib/context/light";
import type { ProcessorEntry, SettingsTuning } from "@/lib/settings";
import { PROCESSOR_INFO } from "./processor-info";
import { RangeField } from "./range-field";
import { TUNING_LABELS } from "./settings-fields";
import styles from "./threshold-panel.module.css";

export interface StrategyFieldsProps {
  processors: readonly ProcessorEntry[];
  tuning: SettingsTuning;
  /** The whole new tuning after an edit. */
  onChange(tuning: SettingsTuning): void;
  disabled?: boolean;
}

type Tuned<K extends StrategyProcessorKind> = NonNullable<SettingsTuning[K]>;

/** A copy of `tuning` with one strategy's field set; `undefined` drops the field (its default applies again). */
function withField<K extends StrategyProcessorKind>(tuning: SettingsTuning, kind: K, field: keyof Tuned<K>, value: unknown): SettingsTuning {
  const own: Record<string, unknown> = { ...tuning[kind] };
  if (value === undefined) delete own[field as string];
  else own[field as string] = value;
  return { ...tuning, [kind]: own };
}

/** Tool names typed as a comma-separated list. */
function toolNames(text: string): string[] {
  return text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

interface TextSettingProps {
  label: string;
  /** The stored value as text. */
  value: string;
  placeholder?: string;
  disabled?: boolean;
  /** Every edit, as typed; the field keeps showing the typed text until it loses focus. */
  onChange(text: string): void;
}

/** A text setting whose stored form differs from what is typed (a list, or empty meaning the default). */
function TextSetting({ label, value, placeholder, disabled, onChange }: TextSettingProps) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <label className={styles.stacked}>
      <span className={styles.fieldLabel}>{label}</span>
      <input
        className={styles.textInput}
        type="text"
        value={draft ?? value}
        placeholder={placeholder}
        disabled={disabled}
        spellCheck={false}
        onChange={(event) => {
          setDraft(event.target.value);
          onChange(event.target.value);
        }}
        onBlur={() => setDraft(null)}
      />
    </label>
  );
}

/**
 * The settings of the strategy processors that are switched on: tool-result
 * clearing, observation masking, auto-compaction and the token window. Only
 * the fields changed here are stored; the others follow the engine's defaults.
 */
export function StrategyFields({ processors, tuning, onChange, disabled }: StrategyFieldsProps) {
  const enabled = STRATEGY_PROCESSOR_KINDS.filter((kind) => processors.some((entry) => entry.kind === kind && entry.enabled));
  if (enabled.length === 0) return null;
  const set = <K extends StrategyProcessorKind>(kind: K, field: keyof Tuned<K>, value: unknown) => onChange(withField(tuning, kind, field, value));
  const clearing = { ...STRATEGY_DEFAULTS.clear_tool_uses, ...tuning.clear_tool_uses };
  const masking = { ...STRATEGY_DEFAULTS.observation_masking, ...tuning.observation_masking };
  const compact = { ...STRATEGY_DEFAULTS.auto_compact, ...tuning.auto_compact };
  const tokenWindow = { ...STRATEGY_DEFAULTS.token_window, ...tuning.token_window };
  const placeholder = <K extends "clear_tool_uses" | "observation_masking">(kind: K, value: string) => (
    <TextSetting
      label={TUNING_LABELS.placeholder}
      value={value}
      disabled={disabled}
      onChange={(text) => set(kind, "placeholder" as keyof Tuned<K>, text === "" ? undefined : text)}
    />
  );

  return (
    <>
      {enabled.includes("clear_tool_uses") ? (
        <fieldset className={styles.group} disabled={disabled} aria-label={`${PROCESSOR_INFO.clear_tool_uses.label} settings`}>
          <legend className={styles.legend}>{PROCESSOR_INFO.clear_tool_uses.label}</legend>
          <RangeField
            label={TUNING_LABELS.triggerTokens}
            unit="tokens"
            min={100}
            max={1_000_000}
            scale="log"
            value={clearing.triggerTokens}
            disabled={disabled}
            hint="Nothing is cleared until the history holds more tokens than this."
            onChange={(value) => set("clear_tool_uses", "triggerTokens", value)}
          />
          <RangeField
            label={TUNING_LABELS.keepToolUses}
            min={0}
            max={50}
            value={clearing.keepToolUses}
            disabled={disabled}
            hint="The newest tool calls with their results stay as they are."
            onChange={(value) => set("clear_tool_uses", "keepToolUses", value)}
          />
          <RangeField
            label={TUNING_LABELS.clearAtLeastTokens}
            unit="tokens"
            min={0}
            max={50_000}
            step={500}
            value={clearing.clearAtLeastTokens}
            disabled={disabled}
            hint="Clears nothing unless at least this many tokens would go."
            onChange={(value) => set("clear_tool_uses", "clearAtLeastTokens", value)}
          />
          <TextSetting
            label={TUNING_LABELS.excludeTools}
            placeholder="tool names, comma-separated"
            value={clearing.excludeTools.join(", ")}
            disabled={disabled}
            onChange={(text) => set("clear_tool_uses", "excludeTools", toolNames(text))}
          />
          <label className={styles.checkbox}>
            <input type="checkbox" checked={clearing.clearToolInputs} onChange={(event) => set("clear_tool_uses", "clearToolInputs", event.target.checked)} />
            <span>
              {TUNING_LABELS.clearToolInputs}
              <span className={styles.checkboxHint}>The call and its id stay; its arguments read as the placeholder.</span>
            </span>
          </label>
          {placeholder("clear_tool_uses", clearing.placeholder)}
        </fieldset>
      ) : null}
      {enabled.includes("observation_masking") ? (
        <fieldset className={styles.group} disabled={disabled} aria-label={`${PROCESSOR_INFO.observation_masking.label} settings`}>
          <legend className={styles.legend}>{PROCESSOR_INFO.observation_masking.label}</legend>
          <RangeField
            label={TUNING_LABELS.keepObservations}
            min={0}
            max={50}
            value={masking.keepObservations}
            disabled={disabled}
            hint="The newest tool results stay; older ones read as the placeholder."
            onChange={(value) => set("observation_masking", "keepObservations", value)}
          />
          {placeholder("observation_masking", masking.placeholder)}
        </fieldset>
      ) : null}
      {enabled.includes("auto_compact") ? (
        <fieldset className={styles.group} disabled={disabled} aria-label={`${PROCESSOR_INFO.auto_compact.label} settings`}>
          <legend className={styles.legend}>{PROCESSOR_INFO.auto_compact.label}</legend>
          <RangeField
            label={TUNING_LABELS.fraction}
            unit="% of the window"
            min={5}
            max={100}
            step={5}
            value={Math.round(compact.fraction * 100)}
            disabled={disabled}
            hint="Once a request passes this share of the context window, everything before the recent rounds is summarised."
            onChange={(value) => set("auto_compact", "fraction", value / 100)}
          />
          <RangeField
            label={TUNING_LABELS.keepRounds}
            min={1}
            max={50}
            value={compact.keepRounds}
            disabled={disabled}
            hint="The newest rounds stay as they are, the unfinished one included."
            onChange={(value) => set("auto_compact", "keepRounds", value)}
          />
        </fieldset>
      ) : null}
      {enabled.includes("token_window") ? (
        <fieldset className={styles.group} disabled={disabled} aria-label={`${PROCESSOR_INFO.token_window.label} settings`}>
          <legend className={styles.legend}>{PROCESSOR_INFO.token_window.label}</legend>
          <RangeField
            label={TUNING_LABELS.maxTokens}
            unit="tokens"
            min={500}
            max={1_000_000}
            scale="log"
            value={tokenWindow.maxTokens}
            disabled={disabled}
            hint="The newest whole rounds that fit this many tokens are kept."
            onChange={(value) => set("token_window", "maxTokens", value)}
          />
        </fieldset>
      ) : null}
    </>
  );
}
