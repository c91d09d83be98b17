"use client";

import type { ApiClient } from "@/lib/client";
import { formatNumber } from "@/components/pipeline/format";
import { formatCost } from "./call-format";
import { CostTable } from "./cost-table";
import { CostTimeline } from "./cost-timeline";
import { useSessionCost } from "./use-session-cost";
import styles from "./calls.module.css";

/**
 * What the session's calls cost: the total as the provider reported it where
 * it did (predicted elsewhere), beside the cache model's prediction; the
 * timeline of cache reads, writes and misses; and every call with why its
 * cache broke.
 */
export interface SessionCostProps {
  client: ApiClient;
  conversationId: string;
  revision: number;
  /** Shows the stored message where a call's request first differed from the call before. */
  onShowMessage?(position: number): void;
  /** Opens a recorded call's bodies and its diff against the call before. */
  onOpenCall?(exchangeId: string): void;
}

export function SessionCost({ client, conversationId, revision, onShowMessage, onOpenCall }: SessionCostProps) {
  const { cost, error } = useSessionCost(client, conversationId, revision);
  // The recorded calls below still show when pricing fails: the reason is a note, not an alert.
  if (error) return <p className={styles.muted}>Could not price the calls: {error}</p>;
  if (cost === null || cost.calls.length === 0) return null;
  const reported = cost.calls.filter((call) => call.source === "reported").length;
  const breaks = cost.calls.filter((call) => call.cacheBreak !== null).length;
  return (
    <section className={styles.cost} aria-label="Cost and cache">
      <p className={styles.summary} aria-label="Cost summary">
        <span>
          {formatNumber(cost.calls.length)} API call{cost.calls.length === 1 ? "" : "s"}, {formatNumber(reported)} with reported usage
        </span>
        <span>total {formatCost(cost.totalUsd)}</span>
        <span>cache model {formatCost(cost.predictedTotalUsd)}</span>
        <span data-tone={breaks > 0 ? "warning" : undefined}>
          {formatNumber(breaks)} cache break{breaks === 1 ? "" : "s"}
        </span>
        {cost.unpricedCalls > 0 ? <span>{formatNumber(cost.unpricedCalls)} calls of models without prices</span> : null}
      </p>
      <CostTimeline points={cost.timeline} />
      <CostTable calls={cost.calls} conversationId={conversationId} onShowMessage={onShowMessage} onOpenCall={onOpenCall} />
    </section>
  );
}
