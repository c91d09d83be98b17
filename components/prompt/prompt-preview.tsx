"use client";

import type { RequestView } from "@/lib/request";
import { approximately, sentTerms } from "@/components/pipeline/format";
import { PromptBar } from "./prompt-bar";
import { describeStatus, formatTokens } from "./prompt-format";
import { PromptSectionList } from "./prompt-section-list";
import { RequestBody } from "./request-body";
import styles from "./prompt-preview.module.css";

export interface PromptPreviewProps {
  view: Pick<RequestView, "model" | "maxTokens" | "messages" | "tools" | "sections" | "verdict" | "tokenizer">;
  /** A newer build is under way (the shown one is kept meanwhile). */
  refreshing?: boolean;
}

/** What the next request holds: the verdict, a stacked share bar, the sections with their tokens, and the exact JSON body. */
export function PromptPreview({ view, refreshing = false }: PromptPreviewProps) {
  const status = describeStatus(view);
  const { tokens } = view.verdict;
  const sent = view.verdict.ok;
  const approximate = !view.tokenizer.exact;
  return (
    <div className={styles.preview} aria-busy={refreshing || undefined}>
      <div className={styles.status} data-status={sent ? "ok" : "budget_exceeded"} role="status">
        <span className={styles.badge} data-status={sent ? "ok" : "budget_exceeded"}>
          {sent ? "fits" : "over budget"}
        </span>
        <div>
          <strong>{status.title}</strong>
          <p>{status.detail}</p>
          {view.tokenizer.exact ? null : <p>Counts are approximate: {view.tokenizer.approximation}.</p>}
        </div>
      </div>
      <div className={styles.totals}>
        <span>
          <strong>
            {approximately(approximate)}
            {formatTokens(tokens.total)}
          </strong>{" "}
          tokens
        </span>
        <span>
          {sentTerms(tokens)} / limit {formatTokens(view.verdict.limit)}
        </span>
        <span>
          {view.sections.length} sections · {sent ? `${view.messages.length} messages sent to ${view.model}` : "nothing sent"}
        </span>
      </div>
      <PromptBar sections={view.sections} priming={tokens.priming} />
      <PromptSectionList sections={view.sections} messages={view.messages} priming={tokens.priming} approximate={approximate} />
      <RequestBody view={view} />
    </div>
  );
}
