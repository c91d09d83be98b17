// The module, not the entry: the page must not load the parsers for the labels and kinds.
import type { ImportWarning, ImportWarningCode } from "@/lib/import/types";
import { IMPORT_FORMAT_LABELS, type ImportFormat } from "@/lib/import/types";
import styles from "./import.module.css";

/** One conversation of an import, as the report shows it. */
export interface ReportConversation {
  /** Set once stored: the report links to the conversation and its messages. */
  id?: string;
  title: string;
  messageCount: number;
  warnings: readonly (ImportWarning & { position?: number | null })[];
}

export interface ImportReportProps {
  format: ImportFormat;
  conversations: readonly ReportConversation[];
  /** Shown before anything is stored (the paste inspector): no links, and "would be". */
  preview?: boolean;
}

type Kind = "repaired" | "dropped" | "approximated" | "converted" | "marker";

const KINDS: Record<ImportWarningCode, Kind> = {
  "orphan-tool-result": "dropped",
  "duplicate-tool-result": "dropped",
  "empty-assistant-dropped": "dropped",
  "unanswered-tool-call": "repaired",
  "interleaved-message-moved": "repaired",
  "part-dropped": "dropped",
  "entry-skipped": "dropped",
  "extras-dropped": "dropped",
  "cache-control-dropped": "dropped",
  "part-approximated": "approximated",
  "system-moved": "approximated",
  "call-id-generated": "approximated",
  "arguments-stringified": "converted",
  "tool-type-added": "converted",
  "shape-normalised": "converted",
  "legacy-function-call": "converted",
  "lines-merged": "converted",
  sidechain: "converted",
  marker: "marker",
};

const KIND_ORDER: Kind[] = ["dropped", "repaired", "approximated", "converted", "marker"];
const KIND_TITLES: Record<Kind, string> = {
  dropped: "Dropped",
  repaired: "Repaired",
  approximated: "Approximated",
  converted: "Converted",
  marker: "Markers",
};

/** The workspace URL of a conversation with one message selected. */
export function messageHref(conversationId: string, position: number): string {
  return `/c/${encodeURIComponent(conversationId)}?message=${position}`;
}

/** What an import converted, repaired, dropped or approximated, per conversation, with links to the messages concerned. */
export function ImportReport({ format, conversations, preview = false }: ImportReportProps) {
  const many = conversations.length > 1;
  return (
    <section aria-label="Import report" className={styles.report}>
      <h2>Import report</h2>
      <p>
        Read as {IMPORT_FORMAT_LABELS[format]}. {many ? `${conversations.length} conversations ${preview ? "in the input" : "created"}.` : null}
      </p>
      {many ? (
        <ol className={styles.reportList}>
          {conversations.map((conversation, index) => (
            <li key={conversation.id ?? index}>
              {conversation.id ? <a href={`/c/${encodeURIComponent(conversation.id)}`}>{conversation.title}</a> : conversation.title} (
              {conversation.messageCount} messages
              {conversation.warnings.length > 0 ? `, ${conversation.warnings.length} note${conversation.warnings.length === 1 ? "" : "s"}` : ""})
            </li>
          ))}
        </ol>
      ) : null}
      {conversations.map((conversation, index) => (
        <ConversationReport key={conversation.id ?? index} conversation={conversation} heading={many} />
      ))}
    </section>
  );
}

function ConversationReport({ conversation, heading }: { conversation: ReportConversation; heading: boolean }) {
  if (conversation.warnings.length === 0) {
    return heading ? null : <p>{conversation.messageCount} messages imported as they were: nothing was changed, dropped or approximated.</p>;
  }
  return (
    <div aria-label={`Report for ${conversation.title}`} role="group">
      {heading ? <h3>{conversation.title}</h3> : <p>{conversation.messageCount} messages imported.</p>}
      {KIND_ORDER.map((kind) => {
        const warnings = conversation.warnings.filter((warning) => KINDS[warning.code] === kind);
        if (warnings.length === 0) return null;
        return (
          <div key={kind}>
            <h4>{KIND_TITLES[kind]}</h4>
            <ul className={styles.reportList}>
              {warnings.map((warning, index) => (
                <li key={index}>
                  {conversation.id !== undefined && warning.position !== undefined && warning.position !== null ? (
                    <a href={messageHref(conversation.id, warning.position)}>message {warning.position}</a>
                  ) : warning.messageIndex !== undefined ? (
                    <span>message {warning.messageIndex}</span>
                  ) : null}
                  {warning.messageIndex !== undefined ? ": " : null}
                  {warning.message}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
