import { Fragment, useMemo, type ReactNode } from "react";
// The module, not the entry: the page must not load the parsers (and zod) for the marker scan.
import { findOffloadMarkers } from "@/lib/import/markers";
import styles from "./conversation-view.module.css";
import { SafeText } from "@/components/ui/safe-text";

export const COLLAPSED_LINES = 10;
export const COLLAPSED_CHARACTERS = 1_200;

/** A JSON object or array (a tool result, usually) laid out two spaces deep; anything else as it is. */
export function readableText(text: string): { text: string; json: boolean } {
  const start = text.trimStart()[0];
  if ((start !== "{" && start !== "[") || text.length > 200_000) return { text, json: false };
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? { text: JSON.stringify(value, null, 2), json: true } : { text, json: false };
  } catch {
    return { text, json: false };
  }
}

/** The first lines of a long text, or null when it is short enough to show whole. */
export function collapsedText(text: string): string | null {
  let cut = Math.min(text.length, COLLAPSED_CHARACTERS);
  let lines = 0;
  for (let index = 0; index < cut; index += 1) {
    if (text.charCodeAt(index) === 10 && ++lines === COLLAPSED_LINES) {
      cut = index;
      break;
    }
  }
  return cut < text.length ? text.slice(0, cut) : null;
}

function withHandleChips(text: string, onOpenHandle?: (handle: string) => void): ReactNode {
  const markers = findOffloadMarkers(text);
  if (markers.length === 0) return <SafeText text={text} />;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const marker of markers) {
    if (marker.index < at) continue;
    parts.push(<SafeText text={text.slice(at, marker.index)} />);
    const label = `${marker.engine === "exo" ? "Exo" : "Context Lab"} offload handle ${marker.handle}${marker.type ? ` (${marker.type})` : ""}`;
    parts.push(
      <button
        key={marker.index}
        type="button"
        className={styles.handleChip}
        data-engine={marker.engine}
        title={marker.path ?? marker.marker}
        aria-label={label}
        onClick={(event) => {
          event.stopPropagation();
          onOpenHandle?.(marker.handle);
        }}
      >
        ⧉ {marker.handle}
      </button>,
    );
    at = marker.index + marker.marker.length;
  }
  parts.push(<SafeText text={text.slice(at)} />);
  return parts.map((part, index) => <Fragment key={index}>{part}</Fragment>);
}

/** A message's text: long ones collapsed with a button to expand; offload markers drawn as handle chips. */
export function MessageContent({
  text: raw,
  expanded,
  onToggle,
  onOpenHandle,
}: {
  text: string;
  expanded: boolean;
  onToggle: () => void;
  onOpenHandle?: (handle: string) => void;
}) {
  const { text, json } = useMemo(() => readableText(raw), [raw]);
  const head = collapsedText(text);
  const shown = head === null || expanded ? text : head;
  const lines = head === null ? 0 : text.split("\n").length;
  return (
    <div className={styles.content}>
      <pre className={styles.text} data-json={json || undefined} title={json ? "JSON, formatted for reading" : undefined}>
        {withHandleChips(shown, onOpenHandle)}
        {head !== null && !expanded ? <span className={styles.fade}>…</span> : null}
      </pre>
      {head !== null ? (
        <button
          type="button"
          className={styles.expand}
          aria-expanded={expanded}
          onClick={(event) => {
            event.stopPropagation();
            onToggle();
          }}
        >
          {expanded ? "Collapse" : `Show all ${lines.toLocaleString("en")} lines · ${raw.length.toLocaleString("en")} characters`}
        </button>
      ) : null}
    </div>
  );
}
