"use client";

import { usePlaygroundStore } from "@/lib/store/provider";
import { AssemblyLine, BudgetBar, StepDiff, ThresholdPanel, TokenDeltaChart, TraceTable } from "@/components/pipeline";
import { SavedPolicies } from "@/components/policies/saved-policies";
import { SettingsHistory } from "@/components/policies/settings-history";
import { traceCsv, traceJson } from "@/components/pipeline/trace-export";
import { downloadText } from "@/components/ui/download";
import ui from "@/components/ui/ui.module.css";
import styles from "./workspace.module.css";

/** The Pipeline tab: budget bar, every setting, the per-processor chart, the trace and the selected step's diff; each change builds the next request again in the worker. */
export function PipelineTab() {
  const settings = usePlaygroundStore((state) => state.settings);
  const resolved = usePlaygroundStore((state) => state.resolved);
  const catalogue = usePlaygroundStore((state) => state.catalogue);
  const result = usePlaygroundStore((state) => state.result);
  const loadStatus = usePlaygroundStore((state) => state.loadStatus);
  const selectedStep = usePlaygroundStore((state) => state.selectedStep);
  const stepHistories = usePlaygroundStore((state) => state.stepHistories);
  const replaceSettings = usePlaygroundStore((state) => state.replaceSettings);
  const selectStep = usePlaygroundStore((state) => state.selectStep);
  const withTurn = usePlaygroundStore((state) => state.nextTurn.trim() !== "");
  const step = result && selectedStep !== null ? result.steps[selectedStep] : undefined;
  return (
    <div className={styles.pipelineTab}>
      {result ? (
        <div className={styles.summary}>
          <BudgetBar verdict={result.request.verdict} trimmed={result.trimmed} approximation={result.request.tokenizer.approximation} />
        </div>
      ) : (
        <p className={styles.empty}>{loadStatus === "error" ? "No run: the conversation did not load." : "Running the pipeline…"}</p>
      )}
      <SettingsHistory />
      <ThresholdPanel settings={settings} resolved={resolved} catalogue={catalogue} onChange={replaceSettings} disabled={loadStatus === "error"} />
      <SavedPolicies />
      {result ? (
        <section aria-label="Trace" className={styles.section}>
          {/* Its first paint is the first result shown: the playground benchmark times it (Element Timing). */}
          <h3 className={styles.sectionTitle} elementtiming="first-result">
            Trace{" "}
            <span className={styles.muted}>
              {result.totalMs.toFixed(1)} ms {result.origin === "server" ? "on the server" : "in the worker"} · [ ] to step through
            </span>
          </h3>
          <div className={styles.traceExports} role="group" aria-label="Export the trace">
            <button type="button" className={ui.button} onClick={() => downloadText(traceCsv(result.steps), "trace.csv", "text/csv")}>
              Trace CSV
            </button>
            <button type="button" className={ui.button} onClick={() => downloadText(traceJson(result.steps), "trace.json")}>
              Trace JSON
            </button>
          </div>
          <AssemblyLine request={result.request} withTurn={withTurn} />
          <TokenDeltaChart steps={result.steps} selectedStep={selectedStep} onSelectStep={selectStep} approximate={!result.request.tokenizer.exact} />
          <TraceTable
            steps={result.steps}
            selectedStep={selectedStep}
            onSelectStep={selectStep}
            sent={{ tokens: result.request.verdict.tokens, messages: result.history.length }}
            approximate={!result.request.tokenizer.exact}
          />
        </section>
      ) : null}
      {step ? (
        <section aria-label="Step diff" className={styles.section}>
          {stepHistories && stepHistories.step === selectedStep ? (
            <StepDiff before={stepHistories.before} after={stepHistories.after} processor={step.processor} effects={step.effects} />
          ) : (
            <p className={styles.muted}>Loading what {step.processor} received and returned…</p>
          )}
        </section>
      ) : null}
    </div>
  );
}
