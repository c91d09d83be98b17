"use client";

import { usePlaygroundStore } from "@/lib/store/provider";
import { BudgetBar, StepDiff, ThresholdPanel, TokenDeltaChart, TraceTable } from "@/components/pipeline";
import styles from "./workspace.module.css";

/** The Pipeline tab: budget bar, every setting, the per-processor chart, the trace and the selected step's diff; each change re-runs in the worker. */
export function PipelineTab() {
  const settings = usePlaygroundStore((state) => state.settings);
  const result = usePlaygroundStore((state) => state.result);
  const loadStatus = usePlaygroundStore((state) => state.loadStatus);
  const selectedStep = usePlaygroundStore((state) => state.selectedStep);
  const stepHistories = usePlaygroundStore((state) => state.stepHistories);
  const replaceSettings = usePlaygroundStore((state) => state.replaceSettings);
  const selectStep = usePlaygroundStore((state) => state.selectStep);
  const step = result && selectedStep !== null ? result.steps[selectedStep] : undefined;
  return (
    <div className={styles.pipelineTab}>
      {result ? (
        <div className={styles.summary}>
          <BudgetBar budget={result.budget} tokenBudget={settings.tokenBudget} exceeded={result.exceeded} trimmed={result.trimmed} />
        </div>
      ) : (
        <p className={styles.empty}>{loadStatus === "error" ? "No run: the conversation did not load." : "Running the pipeline…"}</p>
      )}
      <ThresholdPanel settings={settings} onChange={replaceSettings} disabled={loadStatus === "error"} />
      {result ? (
        <section aria-label="Trace" className={styles.section}>
          <h3 className={styles.sectionTitle}>
            Trace <span className={styles.muted}>{result.totalMs.toFixed(1)} ms in the worker · [ ] to step through</span>
          </h3>
          <TokenDeltaChart steps={result.steps} selectedStep={selectedStep} onSelectStep={selectStep} />
          <TraceTable steps={result.steps} selectedStep={selectedStep} onSelectStep={selectStep} />
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
