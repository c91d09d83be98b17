"use client";

import { useId } from "react";
import { encodingForModel, ENCODINGS, type EncodingName } from "@/lib/context/light";
import styles from "./threshold-panel.module.css";

/** Models offered in the model field's suggestions; any other name may be typed. */
export const MODEL_SUGGESTIONS: readonly string[] = ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-5", "o3", "o4-mini", "gpt-4-turbo", "gpt-4", "gpt-3.5-turbo"];

export interface ModelFieldProps {
  model: string;
  /** Explicit encoding; `undefined` counts with the model's (`encodingForModel`). */
  encoding?: EncodingName;
  suggestions?: readonly string[];
  disabled?: boolean;
  /** The model and the encoding after an edit; `encoding` is absent when "auto" is chosen. */
  onChange(change: { model: string; encoding?: EncodingName }): void;
}

/** The model name (free text with suggestions) and the token encoding, automatic from the model or explicit. */
export function ModelField({ model, encoding, suggestions = MODEL_SUGGESTIONS, disabled, onChange }: ModelFieldProps) {
  const id = useId();
  const automatic = encodingForModel(model);
  const withEncoding = (next: string, chosen: EncodingName | undefined) => (chosen ? { model: next, encoding: chosen } : { model: next });

  return (
    <div className={styles.modelRow}>
      <label className={styles.stacked}>
        <span className={styles.fieldLabel}>Model</span>
        <input
          className={styles.textInput}
          type="text"
          list={`${id}-models`}
          value={model}
          disabled={disabled}
          spellCheck={false}
          autoComplete="off"
          onChange={(event) => onChange(withEncoding(event.target.value, encoding))}
        />
        <datalist id={`${id}-models`}>
          {suggestions.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
      </label>
      <label className={styles.stacked}>
        <span className={styles.fieldLabel}>Encoding</span>
        <select
          className={styles.select}
          value={encoding ?? "auto"}
          disabled={disabled}
          onChange={(event) => onChange(withEncoding(model, event.target.value === "auto" ? undefined : (event.target.value as EncodingName)))}
        >
          <option value="auto">Auto ({automatic})</option>
          {ENCODINGS.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
