"use client";

import { Fragment } from "react";
import type { CostCall } from "@/lib/client/types";
import { promptTokensOfUsage } from "@/lib/context/light";
import { formatNumber } from "@/components/pipeline/format";
import { SafeText } from "@/components/ui/safe-text";
import { CACHE_BREAK_LABELS } from "./cache-break-labels";
import { formatCost } from "./call-format";
import styles from "./calls.module.css";

const time = (at: string | null) => (at === null ? "—" : new Date(at).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" }));

/** "152,000 cached · 1,200 written (1 h) · 8 new": the input by how it was billed. */
function inputParts(call: CostCall): string {
  const { input, cacheRead, cacheWrite5m, cacheWrite1h } = call.usage;
  const parts: string[] = [];
  if (cacheRead > 0) parts.push(`${formatNumber(cacheRead)} cached`);
  if (cacheWrite5m > 0) parts.push(`${formatNumber(cacheWrite5m)} written`);
  if (cacheWrite1h > 0) parts.push(`${formatNumber(cacheWrite1h)} written (1 h)`);
  parts.push(`${formatNumber(input)} new`);
  return parts.join(" · ");
}

function predictedText(call: CostCall): string | null {
  if (call.predicted === undefined) return null;
  const read = call.difference?.cacheRead ?? 0;
  const reads = read === 0 ? "reads as predicted" : `reads ${read > 0 ? "+" : "−"}${formatNumber(Math.abs(read))} against the prediction`;
  return `predicted ${formatCost(call.predicted.costUsd)}, ${reads}`;
}

/**
 * Every API call of the session: when, its input by how it was billed (as
 * reported, else predicted), its output and cost with the cache model's
 * prediction under it, and, on a line of its own, why its cache broke.
 */
export interface CostTableProps {
  calls: readonly CostCall[];
  /** The open conversation: a break's message is shown only for its own calls. */
  conversationId: string;
  onShowMessage?(position: number): void;
  onOpenCall?(exchangeId: string): void;
}

/** Where a call's request first differed: its message in the conversation, else the recorded call's request diff. */
function BreakLink({ call, conversationId, onShowMessage, onOpenCall }: Omit<CostTableProps, "calls"> & { call: CostCall }) {
  const position = call.cacheBreak?.position;
  if (position?.section === "messages" && call.conversationId === conversationId && onShowMessage) {
    return (
      <button type="button" className={styles.linkButton} onClick={() => onShowMessage(position.index)}>
        show message #{position.index}
      </button>
    );
  }
  if (call.exchangeId !== null && onOpenCall) {
    const callId = call.exchangeId;
    return (
      <button type="button" className={styles.linkButton} onClick={() => onOpenCall(callId)}>
        open the request diff
      </button>
    );
  }
  return null;
}

export function CostTable({ calls, conversationId, onShowMessage, onOpenCall }: CostTableProps) {
  const models = new Set(calls.map((call) => call.model));
  return (
    <div className={styles.scroller}>
      <table className={`${styles.table} ${styles.costTable}`} aria-label="Cost per call">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Time</th>
            <th scope="col">Input</th>
            <th scope="col" data-numeric>
              Output
            </th>
            <th scope="col" data-numeric>
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {calls.map((call) => {
            const key = `${call.conversationId}-${call.index}`;
            const predicted = predictedText(call);
            return (
              <Fragment key={key}>
                <tr data-subagent={call.subagent ? true : undefined} data-broken={call.cacheBreak ? true : undefined}>
                  <th scope="row">{call.index + 1}</th>
                  <td>
                    {time(call.at)}
                    {call.subagent ? <span className={styles.subagentMark}> · subagent</span> : null}
                    {models.size > 1 && call.model ? (
                      <span className={styles.subagentMark}>
                        {" "}
                        · <SafeText text={call.model} />
                      </span>
                    ) : null}
                  </td>
                  <td title={call.source === "reported" ? "As the provider reported it" : "Predicted by the cache model: the source kept no usage"}>
                    {formatNumber(promptTokensOfUsage(call.usage))}
                    {call.source === "predicted" ? " (predicted)" : ""}
                    <span className={styles.inputParts}>{inputParts(call)}</span>
                  </td>
                  <td data-numeric>{formatNumber(call.usage.output)}</td>
                  <td data-numeric>
                    {formatCost(call.costUsd)}
                    {predicted ? <span className={styles.inputParts}>{predicted}</span> : null}
                  </td>
                </tr>
                {call.cacheBreak ? (
                  <tr className={styles.breakRow}>
                    <td />
                    <td colSpan={4}>
                      <span className={styles.cacheBreak}>Cache broke: {CACHE_BREAK_LABELS[call.cacheBreak.reason]}.</span>{" "}
                      <SafeText text={call.cacheBreak.detail} />{" "}
                      <BreakLink call={call} conversationId={conversationId} onShowMessage={onShowMessage} onOpenCall={onOpenCall} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      <p className={styles.muted}>
        Models: {[...models].map((model) => model ?? "unknown").join(", ")}. Input is what the provider reported where it did; the cache model&apos;s prediction
        is under each cost.
      </p>
    </div>
  );
}
