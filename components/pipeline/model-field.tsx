"use client";

import { useId } from "react";
import { ENCODINGS, type EncodingName } from "@/lib/context/light";
import type { ModelEntry } from "@/lib/models";
import type { ResolvedSettings } from "@/lib/settings";
import { formatNumber } from "./format";
import styles from "./threshold-panel.module.css";

export interface ModelFieldProps {
  model: string;
  /** Chosen by hand; `null` counts with the model's own. */
  encoding: EncodingName | null;
  resolved: ResolvedSettings;
  catalogue: readonly ModelEntry[];
  disabled?: boolean;
  /** A model was picked: its window, reply reserve and encoding apply. */
  onChooseModel(model: string): void;
  onChangeEncoding(encoding: EncodingName | null): void;
}

function describeEntry(entry: ModelEntry): string {
  const price = entry.prices ? ` · $${entry.prices.input}/$${entry.prices.output} per M` : "";
  return `${entry.label} · ${formatNumber(entry.contextWindow)} window${price}${entry.tokenizer.exact ? "" : " · approximate counts"}`;
}

/** The model (free text with the catalogue's suggestions) and the token encoding, the model's own or chosen by hand; approximate counts say so. */
export function ModelField({ model, encoding, resolved, catalogue, disabled, onChooseModel, onChangeEncoding }: ModelFieldProps) {
  const id = useId();
  const { entry, match } = resolved.model;
  const own = entry.tokenizer;
  return (
    <div className={styles.modelBlock}>
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
            onChange={(event) => onChooseModel(event.target.value)}
          />
          <datalist id={`${id}-models`}>
            {catalogue.map((candidate) => (
              <option key={candidate.id} value={candidate.id} label={describeEntry(candidate)} />
            ))}
          </datalist>
        </label>
        <label className={styles.stacked}>
          <span className={styles.fieldLabel}>Encoding</span>
          <select
            className={styles.select}
            value={encoding ?? "auto"}
            disabled={disabled}
            onChange={(event) => onChangeEncoding(event.target.value === "auto" ? null : (event.target.value as EncodingName))}
          >
            <option value="auto">{own.exact ? `The model's (${own.encoding})` : `Approximate (${own.encoding})`}</option>
            {ENCODINGS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className={styles.modelNote} role="note" aria-label="Model details">
        {match === "fallback"
          ? `${model} is not in the model catalogue: a 128,000-token window applies until you set one. `
          : `${entry.label}: ${formatNumber(entry.contextWindow)}-token window, up to ${formatNumber(entry.maxOutputTokens)} output tokens. `}
        {resolved.exact ? `Counts are exact (${resolved.policy.encoding}).` : `Counts are approximate: ${resolved.approximation}.`}{" "}
        <a href="/models" target="_blank" rel="noreferrer">
          Edit the model catalogue
        </a>
      </p>
    </div>
  );
}
