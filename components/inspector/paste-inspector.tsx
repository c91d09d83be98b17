"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { AUTOMATION_MODES, type AutomationMode } from "@/lib/context/light";
import { PipelineClient, PipelineWorkerError } from "@/lib/playground/pipeline-client";
import type { LoadedConversation, RunResult } from "@/lib/playground/protocol";
import { resolveSettings, settingsForMode } from "@/lib/settings";
import { ConversationView } from "@/components/conversation/conversation-view";
import { effectsAfter } from "@/components/conversation/row-marks";
import { ImportBox, type ImportBoxHandle } from "@/components/import/import-box";
import type { ImportFailure } from "@/components/import/import-issues";
import { ImportReport } from "@/components/import/import-report";
import { useImportAndOpen } from "@/components/import/use-import";
import { BudgetBar } from "@/components/pipeline/budget-bar";
import { TraceTable } from "@/components/pipeline/trace-table";
import ui from "@/components/ui/ui.module.css";
import styles from "./paste-inspector.module.css";

/**
 * The home page's import box: save the pasted or dropped conversation and open
 * its workspace, or run the pipeline on it right here in a Web Worker without
 * saving anything.
 */
export function PasteInspector() {
  const client = useRef<PipelineClient | null>(null);
  const box = useRef<ImportBoxHandle>(null);
  const importer = useImportAndOpen();
  const [text, setText] = useState("");
  const [filename, setFilename] = useState<string>();
  const [largeFile, setLargeFile] = useState<File>();
  const [mode, setMode] = useState<AutomationMode>("copilot");
  const [budget, setBudget] = useState(8_000);
  const [loaded, setLoaded] = useState<LoadedConversation>();
  const [result, setResult] = useState<RunResult>();
  const [runFailure, setRunFailure] = useState<ImportFailure>();
  const [busy, setBusy] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [hovered, setHovered] = useState<string | null>(null);
  const effects = useMemo(() => (result ? effectsAfter(result) : undefined), [result]);

  useEffect(() => {
    client.current = new PipelineClient();
    return () => client.current?.dispose();
  }, []);

  async function run() {
    if (!client.current) return;
    setBusy(true);
    setRunFailure(undefined);
    importer.clear();
    try {
      // IM-14: a large file is read and parsed in the worker; the page never holds its text.
      const conversation = await client.current.parse(largeFile ?? text, filename);
      setLoaded(conversation);
      const next = await client.current.run({ settings: resolveSettings({ ...settingsForMode(mode), tokenBudget: budget }) });
      if (next) setResult(next);
      setSelected(null);
    } catch (caught) {
      setResult(undefined);
      if (caught instanceof PipelineWorkerError) setRunFailure({ message: caught.message, issues: caught.issues });
      else setRunFailure({ message: caught instanceof Error ? caught.message : String(caught), issues: [] });
    } finally {
      setBusy(false);
    }
  }

  const failure = runFailure ?? importer.failure;
  const empty = text.trim() === "" && largeFile === undefined;
  return (
    <div className={styles.inspector}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <ImportBox
          ref={box}
          text={text}
          filename={filename}
          failure={failure}
          largeFile={largeFile}
          progress={importer.progress}
          onTextChange={(next) => {
            setText(next);
            setFilename(undefined);
          }}
          onFile={(next, name) => {
            setText(next);
            setFilename(name);
            setLargeFile(undefined);
            setRunFailure(undefined);
            importer.clear();
          }}
          onLargeFile={(file) => {
            setText("");
            setFilename(file.name);
            setLargeFile(file);
            setRunFailure(undefined);
            importer.clear();
          }}
          onFiles={(files) => {
            setRunFailure(undefined);
            void importer.importFiles(files);
          }}
        >
          <button
            type="button"
            className={ui.button}
            data-variant="primary"
            disabled={empty || importer.busy}
            onClick={() => {
              setRunFailure(undefined);
              void (largeFile ? importer.importFile(largeFile) : importer.importText(text, filename));
            }}
          >
            {importer.busy ? "Importing…" : "Import and open"}
          </button>
          <span className={styles.divider} aria-hidden />
          <label className={styles.control}>
            Mode
            <select value={mode} onChange={(event) => setMode(event.target.value as AutomationMode)}>
              {AUTOMATION_MODES.map((candidate) => (
                <option key={candidate}>{candidate}</option>
              ))}
            </select>
          </label>
          <label className={styles.control}>
            Token budget
            <input type="number" min={100} step={100} value={budget} onChange={(event) => setBudget(Number(event.target.value))} />
          </label>
          <button type="submit" className={ui.button} disabled={busy || empty}>
            {busy ? "Running…" : "Run pipeline"}
          </button>
        </ImportBox>
      </form>
      {importer.report ? <ImportReport {...importer.report} /> : null}
      {loaded && !importer.report && loaded.warnings.length > 0 ? (
        <ImportReport
          preview
          format={loaded.format}
          conversations={[{ title: loaded.title, messageCount: loaded.messages.length, warnings: loaded.warnings }]}
        />
      ) : null}
      {result && loaded ? (
        <section aria-label="Result" className={styles.result}>
          <h2>Trace</h2>
          <p className={styles.summary}>
            {loaded.title}: {loaded.messages.length} messages in, {result.history.length} out
            {loaded.available > 1 ? ` (the first of ${loaded.available} conversations in the input)` : ""}
            {result.request.verdict.ok
              ? ""
              : ` — over budget: needs ${result.request.verdict.tokens.total} tokens, limit ${result.request.verdict.limit}; nothing would be sent`}
          </p>
          <BudgetBar verdict={result.request.verdict} trimmed={result.trimmed} approximation={result.request.tokenizer.approximation} />
          <TraceTable steps={result.steps} />
          <h2>Processed history</h2>
          <div className={styles.history}>
            <ConversationView
              label="Processed history"
              messages={result.history}
              tokens={result.tokens}
              effects={effects}
              selected={selected}
              hoveredCall={hovered}
              onSelect={setSelected}
              onHoverCall={setHovered}
            />
          </div>
        </section>
      ) : null}
    </div>
  );
}
