"use client";

import { useState } from "react";
import type { CompareResult, ToolDefinition } from "@/lib/context/light";
import { StepDiff } from "@/components/pipeline/step-diff";
import { formatNumber } from "@/components/pipeline/format";
import { downloadText } from "@/components/ui/download";
import ui from "@/components/ui/ui.module.css";
import { REQUEST_FORMATS, requestOfCall } from "./compare-format";
import styles from "./compare.module.css";

export interface CallDrillDownProps {
  result: CompareResult;
  tools: readonly ToolDefinition[];
  call: number;
  onSelectCall: (call: number) => void;
}

/** One call's request under two runs, diffed message by message, and the second run's request exported in a wire format. */
export function CallDrillDown({ result, tools, call, onSelectCall }: CallDrillDownProps) {
  const [fromId, setFromId] = useState(result.runs[0]?.id ?? "raw");
  const [toId, setToId] = useState(result.runs[1]?.id ?? result.runs[0]?.id ?? "raw");
  const from = result.runs.find((run) => run.id === fromId) ?? result.runs[0];
  const to = result.runs.find((run) => run.id === toId) ?? result.runs[0];
  const calls = from?.replay.calls.length ?? 0;
  if (!from || !to || calls === 0) return <p className={styles.muted}>The conversation has no model calls to compare.</p>;
  const index = Math.min(call, calls - 1);
  const before = from.replay.calls[index];
  const after = to.replay.calls[index];
  const runOptions = result.runs.map((run) => (
    <option key={run.id} value={run.id}>
      {run.label}
    </option>
  ));
  return (
    <section className={styles.section} aria-label="Call drill-down">
      <h3 className={styles.title}>Request of one call</h3>
      <div className={styles.row}>
        <label>
          Call{" "}
          <select aria-label="Call" value={index} onChange={(event) => onSelectCall(Number(event.target.value))}>
            {from.replay.calls.map((entry) => (
              <option key={entry.call} value={entry.call}>
                {`${entry.call + 1} (message #${entry.at})`}
              </option>
            ))}
          </select>
        </label>
        <label>
          from{" "}
          <select aria-label="Diff from" className={styles.select} value={from.id} onChange={(event) => setFromId(event.target.value)}>
            {runOptions}
          </select>
        </label>
        <label>
          to{" "}
          <select aria-label="Diff to" className={styles.select} value={to.id} onChange={(event) => setToId(event.target.value)}>
            {runOptions}
          </select>
        </label>
      </div>
      <p className={styles.muted}>
        {from.label}: {formatNumber(before.tokens.total)} tokens in {formatNumber(before.messageCount)} messages · {to.label}:{" "}
        {formatNumber(after.tokens.total)} tokens in {formatNumber(after.messageCount)} messages
        {after.stopped ? " · over budget: this request would not be sent" : ""}
      </p>
      <div className={styles.row} role="group" aria-label={`Export the request of ${to.label}`}>
        <span className={styles.muted}>Export {to.label}&apos;s request:</span>
        {REQUEST_FORMATS.map((entry) => (
          <button
            key={entry.format}
            type="button"
            className={ui.button}
            onClick={() => downloadText(requestOfCall(entry.format, after, to, tools).text, `call-${index + 1}-${to.id}.${entry.format}.json`)}
          >
            {entry.label}
          </button>
        ))}
      </div>
      <StepDiff
        before={before.messages}
        after={after.messages}
        processor={`${from.label} → ${to.label}`}
        unchangedText="Both policies send the same messages in this call."
      />
    </section>
  );
}
