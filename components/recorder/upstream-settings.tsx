"use client";

import { useId, useState, type FormEvent } from "react";
import ui from "@/components/ui/ui.module.css";
import type { UpstreamSettingsChanges, UpstreamSettingsView } from "./chat-api";
import styles from "./recorder.module.css";

export interface UpstreamSettingsFormProps {
  view: UpstreamSettingsView;
  saving: boolean;
  error: string | null;
  onSave(changes: UpstreamSettingsChanges): Promise<boolean>;
  onClose(): void;
}

const FROM_ENVIRONMENT = "set by the server's environment; change it there";

/** Base URL, API key (write-only: only whether it is set and its last 4 characters show) and timeout of the upstream. */
export function UpstreamSettingsForm({ view, saving, error, onSave, onClose }: UpstreamSettingsFormProps) {
  const [baseUrl, setBaseUrl] = useState(view.baseUrl ?? "");
  const [apiKey, setApiKey] = useState("");
  const [clearKey, setClearKey] = useState(false);
  const [timeoutSeconds, setTimeoutSeconds] = useState(String(Math.round(view.timeoutMs / 1000)));
  const id = useId();
  const baseUrlLocked = view.baseUrlSource === "environment";
  const keyLocked = view.apiKey.source === "environment";
  const timeoutLocked = view.timeoutSource === "environment";

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const changes: UpstreamSettingsChanges = {};
    if (!baseUrlLocked) changes.baseUrl = baseUrl.trim() === "" ? null : baseUrl.trim();
    if (!keyLocked && clearKey) changes.apiKey = null;
    else if (!keyLocked && apiKey.trim() !== "") changes.apiKey = apiKey.trim();
    const seconds = Number(timeoutSeconds);
    if (!timeoutLocked && Number.isFinite(seconds) && seconds > 0) changes.timeoutMs = Math.round(seconds * 1000);
    if (await onSave(changes)) {
      setApiKey("");
      setClearKey(false);
      onClose();
    }
  };

  const keyState = view.apiKey.set ? (view.apiKey.last4 ? `set, ends in …${view.apiKey.last4}` : "set (short key, not shown)") : "not set";
  return (
    <form className={styles.settings} aria-label="Upstream settings" onSubmit={(event) => void submit(event)}>
      <label htmlFor={`${id}-url`}>Base URL</label>
      <input
        id={`${id}-url`}
        type="url"
        value={baseUrl}
        placeholder="https://api.openai.com/v1"
        disabled={baseUrlLocked}
        title={baseUrlLocked ? FROM_ENVIRONMENT : "Ends before /chat/completions"}
        onChange={(event) => setBaseUrl(event.target.value)}
      />
      <label htmlFor={`${id}-key`}>API key</label>
      <div className={styles.keyRow}>
        <input
          id={`${id}-key`}
          type="password"
          autoComplete="off"
          value={apiKey}
          placeholder={keyLocked ? FROM_ENVIRONMENT : `${keyState}; type to replace`}
          disabled={keyLocked || clearKey}
          onChange={(event) => setApiKey(event.target.value)}
        />
        {view.apiKey.set && !keyLocked ? (
          <label className={styles.inline}>
            <input type="checkbox" checked={clearKey} onChange={(event) => setClearKey(event.target.checked)} /> Clear
          </label>
        ) : null}
      </div>
      <span className={styles.muted} aria-label="API key state">
        Key {keyState}
        {view.apiKey.source ? ` (${view.apiKey.source})` : ""}; it never leaves the server.
      </span>
      <label htmlFor={`${id}-timeout`}>Timeout (s)</label>
      <input
        id={`${id}-timeout`}
        type="number"
        min={1}
        value={timeoutSeconds}
        disabled={timeoutLocked}
        title={timeoutLocked ? FROM_ENVIRONMENT : undefined}
        onChange={(event) => setTimeoutSeconds(event.target.value)}
      />
      {error ? (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
      <div className={styles.actions}>
        <button type="submit" className={ui.button} data-variant="primary" disabled={saving}>
          {saving ? "Saving…" : "Save upstream"}
        </button>
        <button type="button" className={ui.button} data-variant="ghost" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export interface UpstreamStatusProps {
  view: UpstreamSettingsView | null;
  loading: boolean;
  model: string;
  settingsOpen: boolean;
  onToggleSettings(): void;
}

/** One line: where the model calls go and with which model, or how to configure an upstream. */
export function UpstreamStatus({ view, loading, model, settingsOpen, onToggleSettings }: UpstreamStatusProps) {
  let text: string;
  if (loading && !view) text = "Checking the upstream…";
  else if (!view?.configured) text = "No upstream configured: set a base URL (and key) to record chats";
  else text = `${view.baseUrl}${view.apiKey.set ? ` · key …${view.apiKey.last4 ?? "set"}` : " · no key"} · model ${model}`;
  return (
    <p className={styles.upstream} aria-label="Upstream status" data-configured={view?.configured ? "true" : "false"}>
      <span className={styles.dot} aria-hidden="true" />
      <span className={styles.upstreamText} title={view?.configured ? "Change the model in the Pipeline tab's model field" : undefined}>
        {text}
      </span>
      <button type="button" className={ui.button} data-variant="ghost" aria-expanded={settingsOpen} onClick={onToggleSettings}>
        {view?.configured ? "Upstream settings" : "Configure upstream"}
      </button>
    </p>
  );
}
