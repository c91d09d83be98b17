"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { ProcessorSpec } from "@/lib/context/light";
import { completeProcessors, isRecommendedOrder, moveProcessor, recommendedOrder } from "@/lib/settings";
import { PROCESSOR_INFO } from "./processor-info";
import styles from "./processor-list.module.css";

export interface ProcessorListProps {
  /** The settings' processors in run order; shipped processors the list lacks are shown switched off. */
  processors: readonly ProcessorSpec[];
  /** The whole new list after a toggle, a move or a reset (always every shipped processor once). */
  onChange(processors: ProcessorSpec[]): void;
  disabled?: boolean;
}

type Focus = { kind: string; direction: "up" | "down" };

/** The pipeline's processors in run order: enable toggles, drag-and-drop and keyboard reordering, reset to the recommended order. */
export function ProcessorList({ processors, onChange, disabled }: ProcessorListProps) {
  const id = useId();
  const entries = completeProcessors(processors);
  const [dragging, setDragging] = useState<number | null>(null);
  const [dropTarget, setDropTarget] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const pendingFocus = useRef<Focus | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const order = entries.map((entry) => entry.kind).join(",");

  // Moving a row re-inserts its DOM node, which drops focus: put it back on the button that moved it.
  useEffect(() => {
    const focus = pendingFocus.current;
    if (!focus || !list.current) return;
    pendingFocus.current = null;
    const row = list.current.querySelector(`[data-kind="${focus.kind}"]`);
    const wanted = row?.querySelector<HTMLButtonElement>(`[data-move="${focus.direction}"]:not(:disabled)`);
    (wanted ?? row?.querySelector<HTMLButtonElement>("[data-move]:not(:disabled)"))?.focus();
  }, [order]);

  function move(from: number, to: number, focus?: Focus) {
    if (to < 0 || to >= entries.length || from === to) return;
    pendingFocus.current = focus ?? null;
    setAnnouncement(`${PROCESSOR_INFO[entries[from].kind].label} moved to position ${to + 1} of ${entries.length}`);
    onChange(moveProcessor(entries, entries[from].kind, to));
  }

  function toggle(index: number, enabled: boolean) {
    onChange(entries.map((entry, position) => (position === index ? { ...entry, enabled } : entry)));
  }

  const recommended = isRecommendedOrder(entries);

  return (
    <section className={styles.section} aria-labelledby={`${id}-heading`}>
      <header className={styles.header}>
        <h3 id={`${id}-heading`} className={styles.heading}>
          Processors
        </h3>
        <span className={styles.orderStatus}>{recommended ? "recommended order" : "custom order"}</span>
        <button type="button" className={styles.reset} disabled={disabled || recommended} onClick={() => onChange(recommendedOrder(entries))}>
          Reset to recommended order
        </button>
      </header>
      <ol ref={list} className={styles.list} aria-label="Processors in run order">
        {entries.map((entry, index) => {
          const info = PROCESSOR_INFO[entry.kind];
          return (
            <li
              key={entry.kind}
              data-kind={entry.kind}
              className={styles.item}
              data-enabled={entry.enabled || undefined}
              data-dragging={dragging === index || undefined}
              data-drop-target={dropTarget === index && dragging !== index ? (dragging !== null && dragging < index ? "after" : "before") : undefined}
              draggable={!disabled}
              onDragStart={(event) => {
                setDragging(index);
                event.dataTransfer?.setData("text/plain", entry.kind);
                if (event.dataTransfer) event.dataTransfer.effectAllowed = "move";
              }}
              onDragOver={(event) => {
                if (dragging === null) return;
                event.preventDefault();
                setDropTarget(index);
              }}
              onDragLeave={() => setDropTarget((current) => (current === index ? null : current))}
              onDrop={(event) => {
                event.preventDefault();
                if (dragging !== null) move(dragging, index);
                setDragging(null);
                setDropTarget(null);
              }}
              onDragEnd={() => {
                setDragging(null);
                setDropTarget(null);
              }}
            >
              <span className={styles.grip} aria-hidden="true">
                ⋮⋮
              </span>
              <span className={styles.position}>{index + 1}</span>
              <label className={styles.name}>
                <input
                  type="checkbox"
                  checked={entry.enabled}
                  disabled={disabled}
                  onChange={(event) => toggle(index, event.target.checked)}
                  aria-describedby={`${id}-${entry.kind}`}
                />
                <span>{info.label}</span>
              </label>
              <code
                className={styles.event}
                data-event={info.event}
                title={info.event === "post_tool_call" ? "Runs when a tool returns, not before the model call" : "Runs before every model call"}
              >
                {info.event}
              </code>
              <span className={styles.moves}>
                <button
                  type="button"
                  data-move="up"
                  className={styles.move}
                  disabled={disabled || index === 0}
                  aria-label={`Move ${info.label} up`}
                  onClick={() => move(index, index - 1, { kind: entry.kind, direction: "up" })}
                >
                  ↑
                </button>
                <button
                  type="button"
                  data-move="down"
                  className={styles.move}
                  disabled={disabled || index === entries.length - 1}
                  aria-label={`Move ${info.label} down`}
                  onClick={() => move(index, index + 1, { kind: entry.kind, direction: "down" })}
                >
                  ↓
                </button>
              </span>
              <p id={`${id}-${entry.kind}`} className={styles.summary}>
                <code>{entry.kind}</code> — {info.summary}
              </p>
            </li>
          );
        })}
      </ol>
      <p className={styles.liveRegion} role="status" aria-live="polite">
        {announcement}
      </p>
    </section>
  );
}
