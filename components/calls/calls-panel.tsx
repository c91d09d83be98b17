"use client";

import { useCallback, useMemo, useState } from "react";
import { apiClient, type ApiClient } from "@/lib/client";
import { formatNumber } from "@/components/pipeline/format";
import { CallDetail } from "./call-detail";
import { formatCost } from "./call-format";
import { CallsTable } from "./calls-table";
import { SessionCost } from "./session-cost";
import { TokenChart } from "./token-chart";
import { useCalls } from "./use-calls";
import styles from "./calls.module.css";

export interface CallsPanelProps {
  conversationId: string | null;
  /** Bumped when a call was recorded: the list reloads. */
  revision: number;
  client?: ApiClient;
  /** Clipboard writer; defaults to `navigator.clipboard.writeText`. */
  copyText?(text: string): Promise<void>;
  /** Shows a stored message (by its position on the branch) in the conversation: where a call's cache broke. */
  onShowMessage?(position: number): void;
}

const defaultCopy = (text: string) => navigator.clipboard.writeText(text);

/**
 * The Calls tab: what every API call of the session cost and why its cache
 * broke (imported or recorded), then every model call the proxy made for this
 * conversation, a chart of their input tokens, each call's bodies and diff.
 */
export function CallsPanel({ conversationId, revision, client = apiClient, copyText = defaultCopy, onShowMessage }: CallsPanelProps) {
  const { calls, more, loading, error, loadMore } = useCalls(client, conversationId, revision);
  const [openId, setOpenId] = useState<string | null>(null);
  const numbers = useMemo(() => new Map(calls.map((call, index) => [call.id, index + 1])), [calls]);
  const numberOf = useCallback((callId: string) => numbers.get(callId) ?? null, [numbers]);
  const totals = useMemo(() => {
    const failed = calls.filter((call) => call.outcome === "failed").length;
    const priced = calls.filter((call) => call.cost !== null);
    return { failed, cost: priced.length === 0 ? null : priced.reduce((sum, call) => sum + (call.cost ?? 0), 0) };
  }, [calls]);

  if (conversationId === null) return <p className={styles.muted}>Open a conversation to see its model calls.</p>;
  if (error) {
    return (
      <p role="alert" className={styles.muted}>
        Could not load the calls: {error}
      </p>
    );
  }
  const cost = (
    <SessionCost client={client} conversationId={conversationId} revision={revision} onShowMessage={onShowMessage} onOpenCall={(callId) => setOpenId(callId)} />
  );
  if (calls.length === 0) {
    return (
      <div className={styles.panel}>
        {cost}
        <div className={styles.empty}>
          {loading ? (
            <p className={styles.muted}>Loading the calls…</p>
          ) : (
            <>
              <h3>No model calls recorded through the proxy</h3>
              <p>
                Point an agent at this app&apos;s OpenAI base URL with this conversation&apos;s key: every call it makes, failed ones included, is listed here
                with its bodies.
              </p>
            </>
          )}
        </div>
      </div>
    );
  }
  const openNumber = openId ? numberOf(openId) : null;
  return (
    <div className={styles.panel}>
      {cost}
      <p className={styles.summary} aria-label="Calls summary">
        <span>
          {formatNumber(calls.length)} calls{more ? "+" : ""}
        </span>
        <span data-tone={totals.failed > 0 ? "danger" : undefined}>{formatNumber(totals.failed)} failed</span>
        <span>reported cost {formatCost(totals.cost)}</span>
      </p>
      <TokenChart calls={calls} selectedId={openId} onSelect={setOpenId} />
      <CallsTable
        calls={calls}
        openId={openId}
        onToggle={(callId) => setOpenId(openId === callId ? null : callId)}
        detail={
          openId && openNumber !== null ? (
            <CallDetail key={openId} callId={openId} number={openNumber} numberOf={numberOf} client={client} copyText={copyText} />
          ) : null
        }
      />
      {more ? (
        <button type="button" className={styles.more} onClick={loadMore} disabled={loading}>
          {loading ? "Loading…" : "Load more calls"}
        </button>
      ) : null}
    </div>
  );
}
