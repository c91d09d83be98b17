"use client";

import type { CostCall } from "@/lib/client/types";
import { formatNumber } from "@/components/pipeline/format";
import { SafeText } from "@/components/ui/safe-text";
import { CACHE_BREAK_LABELS } from "./cache-break-labels";
import { formatCost } from "./call-format";
import styles from "./calls.module.css";

const time = (at: string | null) => (at === null ? "—" : new Date(at).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" }));

function difference(call: CostCall): string {
  if (call.difference === undefined) return "";
  const { cacheRead, costUsd } = call.difference;
  const tokens = cacheRead === 0 ? "read as predicted" : `read ${cacheRead > 0 ? "+" : ""}${formatNumber(cacheRead)}`;
  return costUsd === null ? tokens : `${tokens} · ${costUsd >= 0 ? "+" : "−"}${formatCost(Math.abs(costUsd))}`;
}

/** Every API call of the session: when, which model, its usage as reported (or predicted), what it cost, the prediction beside it and why the cache broke. */
export function CostTable({ calls }: { calls: readonly CostCall[] }) {
  return (
    <div className={styles.scroller}>
      <table className={`${styles.table} ${styles.costTable}`} aria-label="Cost per call">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Time</th>
            <th scope="col">Model</th>
            <th scope="col">Usage</th>
            <th scope="col" data-numeric>
              Uncached
            </th>
            <th scope="col" data-numeric>
              Cache read
            </th>
            <th scope="col" data-numeric>
              Written
            </th>
            <th scope="col" data-numeric>
              Output
            </th>
            <th scope="col" data-numeric>
              Cost
            </th>
            <th scope="col">Predicted</th>
            <th scope="col">Cache</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((call) => (
            <tr key={`${call.conversationId}-${call.index}`} data-subagent={call.subagent ? true : undefined}>
              <th scope="row">
                {call.index + 1}
                {call.subagent ? <span className={styles.subagentMark}> subagent</span> : null}
              </th>
              <td>{time(call.at)}</td>
              <td>{call.model ? <SafeText text={call.model} /> : "—"}</td>
              <td>{call.source}</td>
              <td data-numeric>{formatNumber(call.usage.input)}</td>
              <td data-numeric>{formatNumber(call.usage.cacheRead)}</td>
              <td data-numeric title={`5 min: ${formatNumber(call.usage.cacheWrite5m)}, 1 h: ${formatNumber(call.usage.cacheWrite1h)}`}>
                {formatNumber(call.usage.cacheWrite5m + call.usage.cacheWrite1h)}
                {call.usage.cacheWrite1h > 0 ? " (1 h)" : ""}
              </td>
              <td data-numeric>{formatNumber(call.usage.output)}</td>
              <td data-numeric>{formatCost(call.costUsd)}</td>
              <td>{call.predicted ? `${formatCost(call.predicted.costUsd)} · ${difference(call)}` : "—"}</td>
              <td>
                {call.cacheBreak ? (
                  <span className={styles.cacheBreak} title={call.cacheBreak.detail}>
                    {CACHE_BREAK_LABELS[call.cacheBreak.reason]}: <SafeText text={call.cacheBreak.detail} />
                  </span>
                ) : (
                  "—"
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
