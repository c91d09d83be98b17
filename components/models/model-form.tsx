"use client";

import { useId, useState, type FormEvent } from "react";
import { ENCODINGS, type EncodingName } from "@/lib/context/light";
import type { MediaRule, ModelEntry, ModelEntryInput, ModelProvider } from "@/lib/models";
import ui from "@/components/ui/ui.module.css";
import styles from "./models.module.css";

const PROVIDERS: readonly ModelProvider[] = ["openai", "anthropic", "google", "deepseek", "meta", "mistral", "qwen", "other"];
const MEDIA_RULES: readonly MediaRule[] = ["openai", "anthropic", "gemini"];

export interface ModelFormProps {
  /** The entry edited, or null to add one. */
  entry: ModelEntry | null;
  busy?: boolean;
  error?: string;
  onSave(id: string, input: ModelEntryInput): void;
  onCancel(): void;
}

interface Draft {
  id: string;
  label: string;
  provider: ModelProvider;
  contextWindow: string;
  maxOutputTokens: string;
  encoding: EncodingName;
  exact: boolean;
  note: string;
  mediaRule: MediaRule;
  input: string;
  output: string;
  cachedInput: string;
  cacheWrite: string;
  cacheWrite1h: string;
  /** What the form does not edit, kept as the entry had it: reasoning and long-context prices, cache rules, sources. */
  kept: Pick<ModelEntryInput, "caching" | "sources"> & Pick<NonNullable<ModelEntryInput["prices"]>, "reasoning" | "longContext">;
}

function draftOf(entry: ModelEntry | null): Draft {
  const price = (value: number | undefined) => (value === undefined ? "" : String(value));
  return {
    id: entry?.id ?? "",
    label: entry?.label ?? "",
    provider: entry?.provider ?? "other",
    contextWindow: String(entry?.contextWindow ?? 128_000),
    maxOutputTokens: String(entry?.maxOutputTokens ?? 4_096),
    encoding: entry?.tokenizer.encoding ?? "o200k_base",
    exact: entry?.tokenizer.exact ?? false,
    note: entry?.tokenizer.note ?? "",
    mediaRule: entry?.mediaRule ?? "openai",
    input: price(entry?.prices?.input),
    output: price(entry?.prices?.output),
    cachedInput: price(entry?.prices?.cachedInput),
    cacheWrite: price(entry?.prices?.cacheWrite),
    cacheWrite1h: price(entry?.prices?.cacheWrite1h),
    kept: {
      ...(entry?.caching ? { caching: entry.caching } : {}),
      ...(entry?.sources ? { sources: entry.sources } : {}),
      ...(entry?.prices?.reasoning !== undefined ? { reasoning: entry.prices.reasoning } : {}),
      ...(entry?.prices?.longContext ? { longContext: entry.prices.longContext } : {}),
    },
  };
}

/** The draft as the API takes it; numbers the browser could not read stay NaN, and the server names the field. */
function inputOf(draft: Draft): ModelEntryInput {
  const optional = (text: string) => (text.trim() === "" ? undefined : Number(text));
  const hasPrices = draft.input.trim() !== "" || draft.output.trim() !== "";
  const { caching, sources, reasoning, longContext } = draft.kept;
  return {
    label: draft.label.trim() || draft.id.trim(),
    provider: draft.provider,
    contextWindow: Number(draft.contextWindow),
    maxOutputTokens: Number(draft.maxOutputTokens),
    tokenizer: { encoding: draft.encoding, exact: draft.exact, ...(draft.note.trim() ? { note: draft.note.trim() } : {}) },
    mediaRule: draft.mediaRule,
    ...(hasPrices
      ? {
          prices: {
            input: Number(draft.input || 0),
            output: Number(draft.output || 0),
            ...(optional(draft.cachedInput) !== undefined ? { cachedInput: optional(draft.cachedInput) } : {}),
            ...(optional(draft.cacheWrite) !== undefined ? { cacheWrite: optional(draft.cacheWrite) } : {}),
            ...(optional(draft.cacheWrite1h) !== undefined ? { cacheWrite1h: optional(draft.cacheWrite1h) } : {}),
            ...(reasoning !== undefined ? { reasoning } : {}),
            ...(longContext ? { longContext } : {}),
          },
        }
      : {}),
    ...(caching ? { caching } : {}),
    ...(sources ? { sources } : {}),
  };
}

/** Adds a model to the catalogue or edits one: window, output limit, tokenizer, media rules and prices. */
export function ModelForm({ entry, busy, error, onSave, onCancel }: ModelFormProps) {
  const id = useId();
  const [draft, setDraft] = useState(() => draftOf(entry));
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const text = (
    key: "id" | "label" | "contextWindow" | "maxOutputTokens" | "note" | "input" | "output" | "cachedInput" | "cacheWrite" | "cacheWrite1h",
    label: string,
    type = "text",
  ) => (
    <label className={styles.field}>
      <span>{label}</span>
      <input
        id={`${id}-${key}`}
        type={type}
        inputMode={type === "number" ? "decimal" : undefined}
        // Prices have cents and fractions of them: without it the browser refuses 3.75 as off its default step of 1.
        step={type === "number" ? "any" : undefined}
        value={draft[key]}
        disabled={key === "id" && entry !== null}
        onChange={(event) => set(key, event.target.value)}
      />
    </label>
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(draft.id.trim(), inputOf(draft));
  };
  return (
    <form className={styles.form} aria-label={entry ? `Edit ${entry.id}` : "Add a model"} onSubmit={submit}>
      {text("id", "Model id (as agents send it)")}
      {text("label", "Label")}
      <label className={styles.field}>
        <span>Provider</span>
        <select value={draft.provider} onChange={(event) => set("provider", event.target.value as ModelProvider)}>
          {PROVIDERS.map((provider) => (
            <option key={provider}>{provider}</option>
          ))}
        </select>
      </label>
      {text("contextWindow", "Context window (tokens)", "number")}
      {text("maxOutputTokens", "Max output tokens", "number")}
      <label className={styles.field}>
        <span>Counted with</span>
        <select value={draft.encoding} onChange={(event) => set("encoding", event.target.value as EncodingName)}>
          {ENCODINGS.map((encoding) => (
            <option key={encoding}>{encoding}</option>
          ))}
        </select>
      </label>
      <label className={styles.check}>
        <input type="checkbox" checked={draft.exact} onChange={(event) => set("exact", event.target.checked)} />
        <span>This encoding is the model&apos;s own (counts are exact)</span>
      </label>
      {text("note", "What the model's tokenizer really is (shown with approximate counts)")}
      <label className={styles.field}>
        <span>Image and media token rules</span>
        <select value={draft.mediaRule} onChange={(event) => set("mediaRule", event.target.value as MediaRule)}>
          {MEDIA_RULES.map((rule) => (
            <option key={rule}>{rule}</option>
          ))}
        </select>
      </label>
      <fieldset className={styles.prices}>
        <legend>Prices, US dollars per million tokens (leave input and output empty if unknown)</legend>
        {text("input", "Input", "number")}
        {text("output", "Output", "number")}
        {text("cachedInput", "Cached input", "number")}
        {text("cacheWrite", "Cache write, 5 minutes", "number")}
        {text("cacheWrite1h", "Cache write, 1 hour", "number")}
      </fieldset>
      {error ? (
        <p role="alert" className={ui.notice} data-tone="danger">
          {error}
        </p>
      ) : null}
      <div className={styles.actions}>
        <button type="submit" className={ui.button} data-variant="primary" disabled={busy || draft.id.trim() === ""}>
          {busy ? "Saving…" : "Save"}
        </button>
        <button type="button" className={ui.button} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
