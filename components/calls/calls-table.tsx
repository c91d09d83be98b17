"use client";

import { Fragment, type ReactNode } from "react";
import type { CallSummary } from "@/lib/calls/types";
import { safeLabel } from "@/components/ui/reveal-invisible";
import { SafeText } from "@/components/ui/safe-text";
import { describeCall, errorText, formatCost, formatLatency, formatTime, protocolLabel, retriesText, statusText, usageCells } from "./call-format";
import ui from "@/components/ui/ui.module.css";
import styles from "./calls.module.css";

export interface CallsTableProps {
  calls: readonly CallSummary[];
  openId: string | null;
  onToggle(callId: string): void;
  /** The open call's detail, shown under its row. */
  detail?: ReactNode;
}

// UI-G4: what a call sent and cost comes right after its number and model, in view in a narrow panel; the rest scrolls.
const COLUMNS = ["#", "Model", "Status", "Input", "Output", "Cached", "Cost", "Latency", "Retries", "Protocol", "Error", "Time"] as const;
const NUMERIC = new Set<string>(["#", "Latency", "Input", "Output", "Cached", "Cost"]);

/** Every model call in order, one row each; a row opens to its detail. */
export function CallsTable({ calls, openId, onToggle, detail }: CallsTableProps) {
  return (
    <div className={styles.scroller}>
      <table className={`${styles.table} ${ui.stickyFirst}`} aria-label="Model calls">
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" data-numeric={NUMERIC.has(column) || undefined}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {calls.map((call, index) => {
            const open = call.id === openId;
            const usage = usageCells(call);
            return (
              <Fragment key={call.id}>
                <tr data-outcome={call.outcome} data-open={open || undefined} aria-label={describeCall(call, index + 1)}>
                  <td data-numeric>
                    <button
                      type="button"
                      className={styles.open}
                      aria-expanded={open}
                      aria-label={`${open ? "Close" : "Open"} call ${index + 1}`}
                      onClick={() => onToggle(call.id)}
                    >
                      {index + 1}
                    </button>
                  </td>
                  <td>{call.model === null ? "—" : <SafeText text={call.model} />}</td>
                  <td className={styles.status}>{statusText(call)}</td>
                  <td data-numeric>{usage.input}</td>
                  <td data-numeric>{usage.output}</td>
                  <td data-numeric>{usage.cached}</td>
                  <td data-numeric>{formatCost(call.cost)}</td>
                  <td data-numeric>{formatLatency(call.latencyMs)}</td>
                  <td>{retriesText(call)}</td>
                  <td>{protocolLabel(call.protocol)}</td>
                  <td className={styles.error} title={safeLabel(errorText(call))}>
                    <SafeText text={errorText(call)} />
                  </td>
                  <td title={call.createdAt}>{formatTime(call.createdAt)}</td>
                </tr>
                {open && detail ? (
                  <tr className={styles.detailRow}>
                    <td colSpan={COLUMNS.length}>{detail}</td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
