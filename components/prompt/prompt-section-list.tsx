"use client";

import { useState } from "react";
import { contentText, type Message } from "@/lib/context/light";
import type { PromptSection } from "@/lib/client";
import { formatShare, formatTokens, SECTION_KIND_LABELS, sectionShares } from "./prompt-format";
import styles from "./prompt-preview.module.css";

export interface PromptSectionListProps {
  sections: readonly PromptSection[];
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
      {text ? <pre className={styles.content}>{text.length > LIMIT ? `${text.slice(0, LIMIT - 1)}…` : text}</pre> : null}
      {calls.map((call) => (
        <pre key={call.id} className={styles.content}>
          → {call.function.name}({call.function.arguments})
        </pre>
      ))}
    </li>
  );
}

function Section({ section, share, index }: { section: PromptSection; share: number; index: number }) {
  const [open, setOpen] = useState(false);
  const count = section.messages.length;
  const score = section.source?.score;
  return (
    <li className={styles.section} data-kind={section.kind}>
      <div className={styles.sectionHead}>
        <span className={styles.swatch} data-kind={section.kind} aria-hidden="true" />
        <span className={styles.kind}>{SECTION_KIND_LABELS[section.kind]}</span>
        {count > 0 ? (
          <button type="button" className={styles.sectionToggle} title={section.label} aria-expanded={open} aria-label={`${index + 1}. ${section.label}, ${count} message${count === 1 ? "" : "s"}`} onClick={() => setOpen(!open)}>
            {section.label}
          </button>
        ) : (
          <span className={styles.sectionLabel} title={section.label}>{section.label}</span>
        )}
        {score !== undefined ? <span className={styles.score}>score {score.toFixed(2)}</span> : null}
        <span className={styles.tokens}>{formatTokens(section.tokens)}</span>
        <span className={styles.share}>{formatShare(share)}</span>
      </div>
      {open ? (
        <ol className={styles.messages} aria-label={`Messages of ${section.label}`}>
          {section.messages.map((message, position) => (
            <MessageView key={position} message={message} />
          ))}
        </ol>
      ) : null}
    </li>
  );
}

/** The prompt's sections in the order they are sent: label, tokens, share, and the messages on demand. */
export function PromptSectionList({ sections }: PromptSectionListProps) {
  const shares = sectionShares(sections);
  return (
    <ol className={styles.sections} aria-label="Prompt sections">
      {sections.map((section, index) => (
        <Section key={`${section.kind}:${index}`} section={section} share={shares[index]} index={index} />
      ))}
    </ol>
  );
}
