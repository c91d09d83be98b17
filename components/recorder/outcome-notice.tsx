"use client";

import { useEffect, useState } from "react";
import ui from "@/components/ui/ui.module.css";
import type { ApiError } from "@/lib/client";
import type { ChatTurnOutcome, ChatUpstreamError, WrittenCheckpoint } from "@/lib/chat/types";
import styles from "./recorder.module.css";

export interface OutcomeNoticeProps {
  outcome: ChatTurnOutcome | null;
  error: ApiError | null;
  /** Checkpoints the turn wrote before a failure cut the call short. */
  outcomeAt: number | null;
  busy: boolean;
  onRetry(): void;
  onOpenSettings(): void;
}

const number = (value: number) => value.toLocaleString("en");
const WHEN = { prompt: "the new turn made the branch due", reply: "the reply" } as const;

/** Seconds left until `retryAfter` seconds past `since`, ticking. */
function useSecondsLeft(retryAfter: number | null, since: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  const end = retryAfter !== null && since !== null ? since + retryAfter * 1000 : 0;
  useEffect(() => {
    setNow(Date.now());
    if (end <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [end]);
  return Math.max(0, Math.ceil((end - now) / 1000));
}

function upstreamAdvice(error: ChatUpstreamError): string {
  if (error.status === 401 || error.status === 403) return "Check the API key in the upstream settings.";
  if (error.status === 429) return "The upstream is rate limiting: wait, then retry.";
  if (error.status === 404) return "Check the base URL and the model name (Pipeline tab).";
  if (error.type === "upstream_unreachable") return "Check that the upstream is running and the base URL is right.";
  return "";
}

function Checkpoints({ checkpoints }: { checkpoints: WrittenCheckpoint[] }) {
  if (checkpoints.length === 0) return null;
  return (
    <>
      {checkpoints.map((checkpoint) => (
        <p key={checkpoint.checkpointId} className={ui.notice} data-tone="success">
          Checkpoint v{checkpoint.version} created ({checkpoint.reason}, when {WHEN[checkpoint.when]}): messages {checkpoint.fromPosition}–
          {checkpoint.toPosition - 1} summarised.
        </p>
      ))}
    </>
  );
}

function UpstreamFailure({
  error,
  secondsLeft,
  busy,
  onRetry,
  onOpenSettings,
}: {
  error: ChatUpstreamError;
  secondsLeft: number;
  busy: boolean;
  onRetry(): void;
  onOpenSettings(): void;
}) {
  const what = error.source === "upstream" ? `The upstream answered ${error.status}${error.code ? ` (${error.code})` : ""}` : `No reply (${error.type})`;
  const advice = upstreamAdvice(error);
  return (
    <div role="alert" className={ui.notice} data-tone="danger">
      <p className={styles.noticeLine}>
        {what}: {error.message}
      </p>
      <p className={styles.noticeLine}>
        Your turn is recorded; Retry asks the model again. {advice}
        {secondsLeft > 0 ? ` Retry in ${secondsLeft} s.` : ""}
      </p>
      <div className={styles.actions}>
        <button type="button" className={ui.button} onClick={onRetry} disabled={busy || secondsLeft > 0}>
          Retry
        </button>
        {error.status === 401 || error.status === 403 ? (
          <button type="button" className={ui.button} data-variant="ghost" onClick={onOpenSettings}>
            Upstream settings
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** What the last call did: the checkpoint it wrote, the budget stop, the upstream's error, a refusal. */
export function OutcomeNotice({ outcome, error, outcomeAt, busy, onRetry, onOpenSettings }: OutcomeNoticeProps) {
  const upstreamError = outcome?.status === "error" ? outcome.error : null;
  const secondsLeft = useSecondsLeft(upstreamError?.retryAfter ?? null, outcomeAt);
  if (error) {
    const retryable = error.code === "aborted" || error.code === "network_error";
    return (
      <div className={styles.notices}>
        <div role="alert" className={ui.notice} data-tone={error.code === "aborted" ? "warning" : "danger"}>
          <p className={styles.noticeLine}>{error.message}</p>
          {error.code === "upstream_not_configured" ? (
            <button type="button" className={ui.button} onClick={onOpenSettings}>
              Configure upstream
            </button>
          ) : null}
          {retryable ? (
            <button type="button" className={ui.button} onClick={onRetry} disabled={busy}>
              Retry
            </button>
          ) : null}
        </div>
      </div>
    );
  }
  if (!outcome) return null;
  const { prompt, summarizer } = outcome;
  return (
    <div className={styles.notices}>
      <Checkpoints checkpoints={outcome.checkpoints} />
      {summarizer.fallbacks.map((fallback, index) => (
        <p key={index} className={ui.notice} data-tone="warning">
          The upstream summarizer failed ({fallback.reason}); the extractive summary was written instead.
        </p>
      ))}
      {outcome.status === "budget_exceeded" ? (
        <div role="alert" className={ui.notice} data-tone="danger" aria-label="Budget stop">
          <p className={styles.noticeLine}>
            Budget stop: nothing was sent. The request needs {number(outcome.tokens)} tokens, over the limit of {number(outcome.budget)}.
          </p>
          <p className={styles.noticeLine}>{outcome.reason}. Raise the token budget or the context window in the Pipeline tab, or fork the branch earlier.</p>
        </div>
      ) : null}
      {upstreamError ? <UpstreamFailure error={upstreamError} secondsLeft={secondsLeft} busy={busy} onRetry={onRetry} onOpenSettings={onOpenSettings} /> : null}
      <p className={styles.muted} role="status" aria-label="Recorder status">
        {outcome.status === "ok" ? `Reply recorded as message ${outcome.message.position}${outcome.model ? ` (${outcome.model})` : ""}. ` : ""}
        {prompt && prompt.status !== "budget_exceeded"
          ? `Sent ${number(prompt.messages)} messages, ${number(prompt.verdict.tokens.total)} tokens${prompt.status === "compacted" ? " after compacting" : ""}.`
          : ""}
      </p>
    </div>
  );
}
