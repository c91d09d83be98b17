"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import { apiClient, type SavedPolicy } from "@/lib/client";
import { PRESET_IDS, PRESETS, type PresetId } from "@/lib/context/light";
import { diffPolicies, exportPolicy, policyOfPreset, policyOfSettings, settingsWithPolicy, type Policy, type PolicyExportFormat } from "@/lib/policies";
import { usePlaygroundStore } from "@/lib/store/provider";
import { downloadText } from "@/components/ui/download";
import ui from "@/components/ui/ui.module.css";
import { PolicyCode } from "./policy-code";
import { PolicyDiff } from "./policy-diff";
import styles from "./policies.module.css";

const CURRENT = "current";

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Saved policies: start from a preset, save the current settings' policy, apply one (undoable), delete, export, and diff two. */
export function SavedPolicies() {
  const conversationId = usePlaygroundStore((state) => state.conversation?.id);
  const settings = usePlaygroundStore((state) => state.settings);
  const catalogue = usePlaygroundStore((state) => state.catalogue);
  const replaceSettings = usePlaygroundStore((state) => state.replaceSettings);
  const [policies, setPolicies] = useState<SavedPolicy[]>([]);
  const [name, setName] = useState("");
  const [global, setGlobal] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [from, setFrom] = useState(CURRENT);
  const [to, setTo] = useState(CURRENT);
  const [preset, setPreset] = useState<PresetId>("observation_masking");
  const [codeFor, setCodeFor] = useState<string | null>(null);
  const current = useMemo(() => policyOfSettings(settings), [settings]);

  const refresh = useCallback(async () => {
    if (!conversationId) return;
    try {
      setPolicies(await apiClient.listPolicies(conversationId));
    } catch (failure) {
      setError(errorText(failure));
    }
  }, [conversationId]);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  async function save() {
    setError(null);
    try {
      await apiClient.savePolicy({ name, conversationId: global ? null : conversationId, policy: current });
      setName("");
      await refresh();
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  async function remove(id: string) {
    setError(null);
    try {
      await apiClient.deletePolicy(id);
      await refresh();
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  const download = (name: string, policy: Policy, format: PolicyExportFormat) => {
    const file = exportPolicy(name, policy, format, catalogue, settings);
    downloadText(file.text, file.filename, format === "json" ? "application/json" : "text/typescript");
  };
  const policyFor = (id: string) => (id === CURRENT ? current : policies.find((entry) => entry.id === id)?.policy);
  const labelOf = (id: string) => (id === CURRENT ? "Current settings" : (policies.find((entry) => entry.id === id)?.name ?? ""));
  const fromPolicy = policyFor(from);
  const toPolicy = policyFor(to);
  const options = [{ id: CURRENT, name: "Current settings" }, ...policies];
  const codePolicy = codeFor === null ? undefined : policyFor(codeFor);

  return (
    <section className={styles.section} aria-label="Saved policies">
      <h3 className={styles.title}>Policies</h3>
      <div className={styles.row}>
        <label>
          Start from{" "}
          <select aria-label="Preset" value={preset} onChange={(event) => setPreset(event.target.value as PresetId)}>
            {PRESET_IDS.map((id) => (
              <option key={id} value={id}>
                {PRESETS[id].label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className={ui.button} onClick={() => replaceSettings(settingsWithPolicy(settings, policyOfPreset(preset, settings)))}>
          Apply preset
        </button>
      </div>
      <p className={styles.muted}>{PRESETS[preset].description} Applying keeps the model; save it under a name to keep it.</p>
      <form
        className={styles.row}
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <input
          className={styles.input}
          aria-label="Policy name"
          placeholder="Name this policy"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <label className={styles.scope}>
          <input type="checkbox" checked={global} onChange={(event) => setGlobal(event.target.checked)} /> every conversation
        </label>
        <button type="submit" className={ui.button} disabled={name.trim() === "" || !conversationId}>
          Save policy
        </button>
        <button type="button" className={ui.button} onClick={() => download("Current settings", current, "json")}>
          Export JSON
        </button>
        <button type="button" className={ui.button} onClick={() => download("Current settings", current, "typescript")}>
          Export TypeScript
        </button>
        <button type="button" className={ui.button} onClick={() => setCodeFor(CURRENT)}>
          Export as code…
        </button>
      </form>
      {codePolicy && codeFor ? (
        <PolicyCode name={labelOf(codeFor)} policy={codePolicy} catalogue={catalogue} base={settings} onClose={() => setCodeFor(null)} />
      ) : null}
      {error ? (
        <p className={styles.danger} role="alert">
          {error}
        </p>
      ) : null}
      {policies.length > 0 ? (
        <ul className={styles.list} aria-label="Saved policy list">
          {policies.map((entry) => (
            <li key={entry.id} className={styles.item}>
              <span className={styles.name} title={entry.name}>
                {entry.name}
              </span>
              <span className={styles.scope}>{entry.conversationId ? "this conversation" : "every conversation"}</span>
              <button
                type="button"
                className={ui.button}
                onClick={() => replaceSettings(settingsWithPolicy(settings, entry.policy))}
                aria-label={`Apply ${entry.name}`}
              >
                Apply
              </button>
              <button
                type="button"
                className={ui.button}
                onClick={() => download(entry.name, entry.policy, "json")}
                aria-label={`Export ${entry.name} as JSON`}
              >
                JSON
              </button>
              <button
                type="button"
                className={ui.button}
                onClick={() => download(entry.name, entry.policy, "typescript")}
                aria-label={`Export ${entry.name} as TypeScript`}
              >
                TS
              </button>
              <button type="button" className={ui.button} onClick={() => setCodeFor(entry.id)} aria-label={`Export ${entry.name} as code`}>
                Code
              </button>
              <button type="button" className={ui.button} data-variant="danger" onClick={() => void remove(entry.id)} aria-label={`Delete ${entry.name}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.muted}>No saved policies yet.</p>
      )}
      <div className={styles.row}>
        <label>
          Compare{" "}
          <select aria-label="First policy" value={from} onChange={(event) => setFrom(event.target.value)}>
            {options.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          with{" "}
          <select aria-label="Second policy" value={to} onChange={(event) => setTo(event.target.value)}>
            {options.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {fromPolicy && toPolicy ? <PolicyDiff fromLabel={labelOf(from)} toLabel={labelOf(to)} differences={diffPolicies(fromPolicy, toPolicy)} /> : null}
    </section>
  );
}
