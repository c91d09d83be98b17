"use client";

import { useEffect, useMemo, useState } from "react";
import { policySnippet, type CacheTtl } from "@/lib/context/light";
import { cachingOf, findModel } from "@/lib/models";
import { apiClient, type SavedPolicy } from "@/lib/client";
import { policyOfPreset, settingsWithPolicy, type Policy } from "@/lib/policies";
import { usePlaygroundStore } from "@/lib/store/provider";
import { formatNumber } from "@/components/pipeline/format";
import { downloadText } from "@/components/ui/download";
import ui from "@/components/ui/ui.module.css";
import { CallDrillDown } from "./call-drilldown";
import { compareRows, comparisonCsv, comparisonJson, risksOf, seriesOf } from "./compare-format";
import { CompareProgress } from "./compare-progress";
import { CompareTable, formatDollars } from "./compare-table";
import { LineChart } from "./line-chart";
import { comparedPolicies, policyChoices } from "./policy-choices";
import styles from "./compare.module.css";

// Three slots: the engine compares raw and at most three policies.
const DEFAULT_SLOTS = ["current", "preset:observation_masking", ""];
const tokens = (value: number) => `${formatNumber(value)} tokens`;
const TTL_NAMES: Readonly<Record<CacheTtl, string>> = { "5m": "5 minutes", "1h": "1 hour", "24h": "24 hours" };

/** The Compare tab: raw and up to three policies replayed over the conversation in the worker, side by side. */
export function ComparePanel() {
  const conversationId = usePlaygroundStore((state) => state.conversation?.id);
  const settings = usePlaygroundStore((state) => state.settings);
  const catalogue = usePlaygroundStore((state) => state.catalogue);
  const tools = usePlaygroundStore((state) => state.tools);
  const comparison = usePlaygroundStore((state) => state.comparison);
  const comparing = usePlaygroundStore((state) => state.comparing);
  const error = usePlaygroundStore((state) => state.compareError);
  const loadStatus = usePlaygroundStore((state) => state.loadStatus);
  const startCompare = usePlaygroundStore((state) => state.startCompare);
  const cancelCompare = usePlaygroundStore((state) => state.cancelCompare);
  const selectMessage = usePlaygroundStore((state) => state.selectMessage);
  const setView = usePlaygroundStore((state) => state.setView);
  const replaceSettings = usePlaygroundStore((state) => state.replaceSettings);
  const [saved, setSaved] = useState<SavedPolicy[]>([]);
  const [slots, setSlots] = useState(DEFAULT_SLOTS);
  const [call, setCall] = useState(0);
  const [riskRun, setRiskRun] = useState<string | null>(null);
  const [exportRun, setExportRun] = useState<string>("");
  // The compared runs as settings policies, as they were when Compare was pressed: what Apply and Save write.
  const [ranWith, setRanWith] = useState<ReadonlyMap<string, Policy>>(new Map());
  const [notice, setNotice] = useState<string | null>(null);
  const [cacheTtl, setCacheTtl] = useState<CacheTtl | "">("");

  useEffect(() => {
    if (!conversationId) return;
    apiClient.listPolicies(conversationId).then(setSaved, () => setSaved([]));
  }, [conversationId]);

  const choices = useMemo(() => policyChoices(settings, saved, catalogue), [settings, saved, catalogue]);
  const policies = comparedPolicies(slots, choices);
  // The lifetimes the compared model's cache offers: with more than one, Compare prices every write at the one chosen.
  const ttls = policies[0] ? cachingOf(findModel(policies[0].policy.model, catalogue).entry).ttls : [];
  const rows = useMemo(() => (comparison ? compareRows(comparison, catalogue) : []), [comparison, catalogue]);
  const risks = useMemo(() => {
    const run = comparison?.runs.find((entry) => entry.id === riskRun);
    return run ? risksOf(run) : [];
  }, [comparison, riskRun]);
  const exported = comparison?.runs.find((run) => run.id === exportRun) ?? comparison?.runs[1] ?? comparison?.runs[0];

  const compare = () => {
    setNotice(null);
    const byId = new Map(choices.map((choice) => [choice.id, choice.saved]));
    setRanWith(new Map([["raw", policyOfPreset("raw", settings)], ...policies.map((entry): [string, Policy] => [entry.id, byId.get(entry.id)!])]));
    void startCompare(policies, cacheTtl === "" ? undefined : cacheTtl);
  };

  const saveRun = async (label: string, policy: Policy) => {
    setNotice(null);
    try {
      await apiClient.savePolicy({ name: label, conversationId: conversationId ?? null, policy });
      if (conversationId) setSaved(await apiClient.listPolicies(conversationId));
      setNotice(`Saved “${label}” as a policy of this conversation.`);
    } catch (failure) {
      setNotice(failure instanceof Error ? failure.message : String(failure));
    }
  };

  const showMessage = (index: number) => {
    setView("before");
    selectMessage(index);
  };

  return (
    <div className={styles.panel}>
      <section className={styles.section} aria-label="Policies to compare">
        <h3 className={styles.title}>Compare policies</h3>
        <p className={styles.muted}>Every model call of the conversation is replayed under raw (the whole history, no processor) and each policy.</p>
        {slots.map((slot, index) => (
          <label key={index} className={styles.row}>
            {`Policy ${index + 1}`}
            <select
              aria-label={`Policy ${index + 1}`}
              value={slot}
              onChange={(event) => setSlots(slots.map((value, at) => (at === index ? event.target.value : value)))}
            >
              <option value="">—</option>
              {(["Current", "Saved", "Presets"] as const).map((group) => {
                const inGroup = choices.filter((choice) => choice.group === group);
                return inGroup.length === 0 ? null : (
                  <optgroup key={group} label={group}>
                    {inGroup.map((choice) => (
                      <option key={choice.id} value={choice.id}>
                        {choice.label}
                      </option>
                    ))}
                  </optgroup>
                );
              })}
            </select>
          </label>
        ))}
        {ttls.length > 1 ? (
          <label className={styles.row}>
            Cache writes live
            <select aria-label="Cache writes live" value={cacheTtl} onChange={(event) => setCacheTtl(event.target.value as CacheTtl | "")}>
              <option value="">as the model writes them ({TTL_NAMES[ttls[0]]})</option>
              {ttls.map((ttl) => (
                <option key={ttl} value={ttl}>
                  {TTL_NAMES[ttl]}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <div className={styles.row}>
          <button
            type="button"
            className={ui.button}
            data-variant="primary"
            disabled={comparing || policies.length === 0 || loadStatus !== "ready"}
            onClick={compare}
          >
            Compare
          </button>
          {comparing ? (
            <button type="button" className={ui.button} onClick={cancelCompare}>
              Cancel
            </button>
          ) : null}
        </div>
        <CompareProgress policies={policies} />
        {error ? (
          <p className={styles.danger} role="alert">
            {error}
          </p>
        ) : null}
      </section>
      {comparison ? (
        <>
          <section className={styles.section} aria-label="Comparison charts">
            <div className={styles.charts}>
              <LineChart
                title="Input tokens per call"
                series={seriesOf(comparison, "input")}
                format={tokens}
                legend="sum"
                selectedCall={call}
                onSelectCall={setCall}
              />
              <LineChart
                title="Cumulative input tokens"
                series={seriesOf(comparison, "cumulative")}
                format={tokens}
                legend="last"
                selectedCall={call}
                onSelectCall={setCall}
              />
              <LineChart
                title="Cost per call"
                series={seriesOf(comparison, "cost")}
                format={formatDollars}
                legend="sum"
                selectedCall={call}
                onSelectCall={setCall}
              />
            </div>
          </section>
          <section className={styles.section} aria-label="Comparison table">
            <CompareTable rows={rows} riskRun={riskRun} onShowRisks={(id) => setRiskRun(riskRun === id ? null : id)} />
            {comparison.runs[0] ? (
              <p className={styles.muted}>
                {rows.some((row) => row.cost === null)
                  ? `Costs need ${comparison.runs[0].replay.policy.model}'s prices in the model catalogue.`
                  : `Every run is costed at ${comparison.runs[0].replay.policy.model}'s catalogue prices${rows.some((row) => row.model !== rows[0].model) ? ", including runs on another model" : ""}.`}
              </p>
            ) : null}
            {risks.length > 0 ? (
              <ul className={styles.evidence} aria-label="Recall risk evidence">
                {risks.map((risk, index) => (
                  <li key={index}>
                    {`Call ${risk.call + 1}: “${risk.mention}” `}
                    <button type="button" className={styles.link} onClick={() => showMessage(risk.turnIndex)}>
                      {`mentioned in message #${risk.turnIndex}`}
                    </button>
                    {" was only in "}
                    <button type="button" className={styles.link} onClick={() => showMessage(risk.sourceIndex)}>
                      {`message #${risk.sourceIndex}`}
                    </button>
                    {`, ${risk.lostBy}${risk.processor ? ` by ${risk.processor}` : ""}`}
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
          <section className={styles.section} aria-label="Comparison exports">
            <div className={styles.row}>
              <button type="button" className={ui.button} onClick={() => downloadText(comparisonCsv(comparison), "comparison.csv", "text/csv")}>
                Comparison CSV
              </button>
              <button type="button" className={ui.button} onClick={() => downloadText(comparisonJson(comparison), "comparison.json")}>
                Comparison JSON
              </button>
            </div>
            {exported ? (
              <div className={styles.row}>
                <select aria-label="Policy to export" className={styles.select} value={exported.id} onChange={(event) => setExportRun(event.target.value)}>
                  {comparison.runs.map((run) => (
                    <option key={run.id} value={run.id}>
                      {run.label}
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  className={ui.button}
                  onClick={() =>
                    downloadText(
                      JSON.stringify({ name: exported.label, policy: exported.replay.policy }, null, 2),
                      `${exported.id.replace(/\W+/g, "-")}.policy.json`,
                    )
                  }
                >
                  Policy JSON
                </button>
                <button
                  type="button"
                  className={ui.button}
                  onClick={() => downloadText(policySnippet(exported.replay.policy), "context-policy.ts", "text/typescript")}
                >
                  TypeScript snippet
                </button>
                {ranWith.has(exported.id) ? (
                  <>
                    <button type="button" className={ui.button} onClick={() => replaceSettings(settingsWithPolicy(settings, ranWith.get(exported.id)!))}>
                      Apply to settings
                    </button>
                    <button
                      type="button"
                      className={ui.button}
                      disabled={!conversationId}
                      onClick={() => void saveRun(exported.label, ranWith.get(exported.id)!)}
                    >
                      Save as policy
                    </button>
                  </>
                ) : null}
              </div>
            ) : null}
            {notice ? (
              <p className={styles.muted} role="status">
                {notice}
              </p>
            ) : null}
          </section>
          <CallDrillDown result={comparison} tools={tools ?? []} call={call} onSelectCall={setCall} />
        </>
      ) : null}
    </div>
  );
}
