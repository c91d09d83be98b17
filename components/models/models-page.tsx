"use client";

import { useMemo, useState } from "react";
import { apiClient, ApiError, type ApiClient } from "@/lib/client";
import { BUILT_IN_MODELS, type ModelEntry, type ModelEntryInput } from "@/lib/models";
import { Dialog } from "@/components/ui/dialog";
import ui from "@/components/ui/ui.module.css";
import { ModelForm } from "./model-form";
import { ModelTable } from "./model-table";
import { PageShell } from "@/components/ui/page-shell";
import styles from "./models.module.css";

export interface ModelsPageProps {
  models: ModelEntry[];
  takenAt: string;
  client?: ApiClient;
}

const BUILT_IN_IDS: ReadonlySet<string> = new Set(BUILT_IN_MODELS.map((entry) => entry.id));

function messageOf(error: unknown): string {
  if (ApiError.isInstance(error)) return [error.message, ...error.issues.map((issue) => `${issue.path}: ${issue.message}`)].join(" · ");
  return error instanceof Error ? error.message : String(error);
}

/** `/models`: the catalogue that sizes windows, picks tokenizers and prices calls; add a model or correct one. */
export function ModelsPage({ models: initial, takenAt, client = apiClient }: ModelsPageProps) {
  const [models, setModels] = useState(initial);
  const [editing, setEditing] = useState<ModelEntry | "new" | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [filter, setFilter] = useState("");
  const shown = useMemo(() => {
    const wanted = filter.trim().toLowerCase();
    return wanted === "" ? models : models.filter((entry) => `${entry.id} ${entry.label} ${entry.provider}`.toLowerCase().includes(wanted));
  }, [models, filter]);

  async function refresh() {
    setModels((await client.listModels()).models);
  }

  async function save(id: string, input: ModelEntryInput) {
    setBusy(true);
    setError(undefined);
    try {
      await client.saveModel(id, input);
      await refresh();
      setEditing(null);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  async function remove(entry: ModelEntry) {
    setBusy(true);
    setError(undefined);
    try {
      await client.deleteModel(entry.id);
      await refresh();
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <PageShell
      title="Models"
      lead={
        <>
          Each model&apos;s context window, output limit, tokenizer and prices decide how requests are budgeted, counted and priced. Built-in figures were taken
          from the providers&apos; pages on {takenAt}; prices move, so correct an entry or add a model your agents use. Models counted with another
          provider&apos;s encoding show approximate counts wherever a number appears.
        </>
      }
    >
      <div className={styles.toolbar}>
        <label className={styles.search}>
          <span className={styles.hidden}>Find a model</span>
          <input type="search" placeholder="Find a model" value={filter} onChange={(event) => setFilter(event.target.value)} />
        </label>
        <button type="button" className={ui.button} data-variant="primary" onClick={() => setEditing("new")}>
          Add a model
        </button>
      </div>
      {error && editing === null ? (
        <p role="alert" className={ui.notice} data-tone="danger">
          {error}
        </p>
      ) : null}
      <ModelTable models={shown} builtIn={BUILT_IN_IDS} busy={busy} onEdit={setEditing} onRemove={(entry) => void remove(entry)} />
      <Dialog title={editing === "new" ? "Add a model" : editing ? `Edit ${editing.id}` : ""} open={editing !== null} onClose={() => setEditing(null)}>
        {editing !== null ? (
          <ModelForm
            entry={editing === "new" ? null : editing}
            busy={busy}
            error={error}
            onSave={(id, input) => void save(id, input)}
            onCancel={() => setEditing(null)}
          />
        ) : null}
      </Dialog>
    </PageShell>
  );
}
