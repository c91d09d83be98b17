"use client";

import type { AssembledPrompt } from "@/lib/client";
import { PromptBar } from "./prompt-bar";
import { describeShrunk, describeStatus, formatTokens } from "./prompt-format";
import { PromptSectionList } from "./prompt-section-list";
import styles from "./prompt-preview.module.css";

export interface PromptPreviewProps {
  prompt: AssembledPrompt;
  /** A newer preview is being assembled (the shown one is kept meanwhile). */
  refreshing?: boolean;
}

/** What the next request would hold: status, a stacked share bar, and the sections with their tokens. */
export function PromptPreview({ prompt, refreshing = false }: PromptPreviewProps) {
  const status = describeStatus(prompt);
  const shrunk = describeShrunk(prompt.shrunk);
  return (
    <div className={styles.preview} aria-busy={refreshing || undefined}>
      <div className={styles.status} data-status={prompt.status} role="status">
        <span className={styles.badge} data-status={prompt.status}>
          {prompt.status === "budget_exceeded" ? "budget exceeded" : prompt.status}
        </span>
        <div>
          <strong>{status.title}</strong>
          <p>{status.detail}</p>
          {shrunk ? <p>{prompt.status === "budget_exceeded" ? `Left out, still over: ${shrunk}.` : `Left out to fit: ${shrunk}.`}</p> : null}
        </div>
      </div>
      <div className={styles.totals}>
        <span>
          <strong>{formatTokens(prompt.tokens.total)}</strong> tokens
        </span>
        <span>
          system {formatTokens(prompt.tokens.system)} · tools {formatTokens(prompt.tokens.tools)} · history {formatTokens(prompt.tokens.history)} / limit {formatTokens(prompt.budget.limit)}
        </span>
        <span>
          {prompt.sections.length} sections · {prompt.status === "budget_exceeded" ? "nothing sent" : `${prompt.messages.length} messages sent`}
        </span>
      </div>
      <PromptBar sections={prompt.sections} />
      <PromptSectionList sections={prompt.sections} />
    </div>
  );
}
