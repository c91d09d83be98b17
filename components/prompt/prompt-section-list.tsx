"use client";

import { useState } from "react";
import { contentText, type Message } from "@/lib/context/light";
import type { SectionView } from "@/lib/request";
import { formatShare, formatTokens, SECTION_KIND_LABELS, sectionShares } from "./prompt-format";
import styles from "./prompt-preview.module.css";
import { SafeText } from "@/components/ui/safe-text";

export interface PromptSectionListProps {
  sections: readonly SectionView[];
  /** The request's messages, which the sections' indices point into. */
  messages: readonly Message[];
  /** The reply priming (E-RB4): listed as its own line after the sections, so the lines add up to the total. */
  priming?: number;
  /** Counts made with a tokenizer standing in for the model's: each shows "≈". */
  approximate?: boolean;
}

const LIMIT = 2000;

function MessageView({ message }: { message: Message }) {
  const calls = message.role === "assistant" ? (message.tool_calls ?? []) : [];
  const text = contentText(message);
  return (
    <li className={styles.message}>
      <span className={styles.role} data-role={message.role}>
        {message.role}
      </span>
      {text ? (
        <pre className={styles.content}>
          <SafeText text={text.length > LIMIT ? `${text.slice(0, LIMIT - 1)}…` : text} />
        </pre>
      ) : null}
      {calls.map((call) => (
        <pre key={call.id} className={styles.content}>
          → <SafeText text={call.function.name} />(<SafeText text={call.function.arguments} />)
        </pre>
      ))}
    </li>
  );
}

function Section({
  section,
  messages,
  share,
  index,
  approx,
}: {
  section: SectionView;
  messages: readonly Message[];
  share: number;
  index: number;
  approx: string;
}) {
  const [open, setOpen] = useState(false);
  const count = section.indices.length;
  return (
    <li className={styles.section} data-kind={section.kind}>
      <div className={styles.sectionHead}>
        <span className={styles.swatch} data-kind={section.kind} aria-hidden="true" />
        <span className={styles.kind}>{SECTION_KIND_LABELS[section.kind]}</span>
        {count > 0 ? (
          <button
            type="button"
            className={styles.sectionToggle}
            title={section.label}
            aria-expanded={open}
            aria-label={`${index + 1}. ${section.label}, ${count} message${count === 1 ? "" : "s"}`}
            onClick={() => setOpen(!open)}
          >
            {section.label}
          </button>
        ) : (
          <span className={styles.sectionLabel} title={section.label}>
            {section.label}
          </span>
        )}
        <span className={styles.tokens}>
          {approx}
          {formatTokens(section.tokens)}
        </span>
        <span className={styles.share}>{formatShare(share)}</span>
      </div>
      {open ? (
        <ol className={styles.messages} aria-label={`Messages of ${section.label}`}>
          {section.indices.map((at) => (
            <MessageView key={at} message={messages[at]} />
          ))}
        </ol>
      ) : null}
    </li>
  );
}

/** The request's sections, static first: label, tokens, share, and the messages on demand. */
export function PromptSectionList({ sections, messages, priming = 0, approximate = false }: PromptSectionListProps) {
  const shares = sectionShares(sections, priming);
  const total = sections.reduce((sum, section) => sum + section.tokens, priming);
  const approx = approximate ? "≈ " : "";
  return (
    <ol className={styles.sections} aria-label="Prompt sections">
      {sections.map((section, index) => (
        <Section key={`${section.kind}:${index}`} section={section} messages={messages} share={shares[index]} index={index} approx={approx} />
      ))}
      {priming > 0 ? (
        <li className={styles.section} data-kind="priming">
          <div className={styles.sectionHead}>
            <span className={styles.swatch} aria-hidden="true" />
            <span className={styles.kind}>Reply priming</span>
            <span className={styles.sectionLabel} title="Every request ends with tokens that start the model's reply">
              Tokens that start the reply
            </span>
            <span className={styles.tokens}>{formatTokens(priming)}</span>
            <span className={styles.share}>{formatShare(total === 0 ? 0 : priming / total)}</span>
          </div>
        </li>
      ) : null}
    </ol>
  );
}
