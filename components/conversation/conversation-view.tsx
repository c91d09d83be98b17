"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { CallSummary } from "@/lib/calls/types";
import type { CompactionSummary, SubagentSummary } from "@/lib/client/types";
import type { Message } from "@/lib/context";
import type { SystemPromptShift } from "@/lib/formats";
import { FailedCallMarkers } from "./failed-call-marker";
import { MessageRow } from "./message-row";
import { SystemPromptMarker } from "./system-prompt-marker";
import type { RowEffect } from "./row-marks";
import type { RowFacts } from "./row-facts";
import { layoutRows } from "./row-layout";
import { linkToolCalls } from "./tool-links";
import styles from "./conversation-view.module.css";

export interface ConversationViewProps {
  /** Accessible name of the list. */
  label: string;
  messages: readonly Message[];
  tokens?: readonly number[];
  /** The counts were made with a tokenizer standing in for the model's: each shows "≈". */
  approximate?: boolean;
  /** Per message: what the pipeline did to it. */
  effects?: readonly RowEffect[];
  selected: number | null;
  hoveredCall: string | null;
  onSelect: (index: number) => void;
  onHoverCall: (key: string | null) => void;
  onOpenHandle?: (handle: string) => void;
  onFork?: (index: number) => void;
  /** Failed model calls by the history position they were made at: shown before that message (after the last one at the history's length). */
  failedCalls?: ReadonlyMap<number, readonly CallSummary[]>;
  onOpenCalls?: () => void;
  /** Per message: its time, the pause before it, its call's model and reported usage. */
  facts?: readonly (RowFacts | undefined)[];
  /** The agent's compactions by the index of the first message after each. */
  compactions?: ReadonlyMap<number, CompactionSummary>;
  /** Subagents by the id of the call that started them. */
  subagents?: ReadonlyMap<string, SubagentSummary>;
  /** Where the agent's system prompt changed, by the index of the first message sent with the new one (P-SP2). */
  systemPrompts?: ReadonlyMap<number, SystemPromptShift>;
}

const NO_KEYS: readonly string[] = [];

/** Rough height of a row before it is measured: header plus a few lines of text or calls. */
function estimateHeight(message: Message): number {
  const text = message.content ?? "";
  // Formatted JSON fills the collapsed ten lines.
  if (text.length > 200 && (text[0] === "{" || text[0] === "[")) return 34 + 11 * 18;
  let lines = 1;
  for (let index = 0; index < text.length && lines < 11; index += 1) if (text.charCodeAt(index) === 10) lines += 1;
  lines = Math.max(lines, Math.ceil(Math.min(text.length, 1_200) / 110));
  // Parts beyond the text: a line per reasoning block or provider block, a thumbnail row for media.
  const parts = (message.parts ?? []).filter((part) => part.type !== "text");
  const media = parts.some((part) => part.type === "image" || part.type === "audio" || part.type === "document") ? 72 : 0;
  return 34 + Math.min(lines, 11) * 18 + (message.tool_calls?.length ?? 0) * 22 + (parts.length - (media > 0 ? 1 : 0)) * 20 + media;
}

/**
 * The conversation as a virtualised list: only the rows on screen are in the
 * DOM and each is measured, so ten thousand messages of any length scroll
 * smoothly. Rounds are banded, tool chains coloured, calls linked to results.
 */
export function ConversationView({
  label,
  messages,
  tokens,
  approximate,
  effects,
  selected,
  hoveredCall,
  onSelect,
  onHoverCall,
  onOpenHandle,
  onFork,
  failedCalls,
  onOpenCalls,
  facts,
  compactions,
  subagents,
  systemPrompts,
}: ConversationViewProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const layout = useMemo(() => layoutRows(messages), [messages]);
  const links = useMemo(() => linkToolCalls(messages), [messages]);
  const [expanded, setExpanded] = useState<{ messages: readonly Message[]; open: ReadonlySet<number> }>({ messages, open: new Set() });
  const open = expanded.messages === messages ? expanded.open : new Set<number>();

  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateHeight(messages[index]),
    overscan: 6,
    // Server render and tests have no layout: render the first screenful.
    initialRect: { width: 900, height: 900 },
  });

  const otherEnd = useCallback(
    (key: string, from: number) => {
      const ends = links.ends.get(key);
      if (!ends) return -1;
      return ends[0] === from ? ends[1] : ends[0];
    },
    [links],
  );

  const toggleExpanded = useCallback(
    (index: number) => {
      setExpanded((previous) => {
        const next = new Set(previous.messages === messages ? previous.open : []);
        if (next.has(index)) next.delete(index);
        else next.add(index);
        return { messages, open: next };
      });
    },
    [messages],
  );

  const jump = useCallback(
    (index: number) => {
      if (index < 0) return;
      onSelect(index);
    },
    [onSelect],
  );

  useEffect(() => {
    if (selected !== null && selected < messages.length) virtualizer.scrollToIndex(selected, { align: "auto" });
  }, [selected, messages, virtualizer]);

  // Rows are placed at estimated heights until measured: the server's HTML (and the hydration that must match it)
  // lays them out in normal flow instead, so the first paint shows them without overlaps.
  const [measured, setMeasured] = useState(false);
  useEffect(() => setMeasured(true), []);

  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scroller} className={styles.scroller} role="list" aria-label={label} aria-busy={false} tabIndex={-1}>
      <div className={styles.canvas} data-measured={measured} style={measured ? { height: virtualizer.getTotalSize() } : undefined}>
        {items.map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            className={styles.slot}
            style={measured ? { transform: `translateY(${item.start}px)` } : undefined}
          >
            {failedCalls?.has(item.index) ? <FailedCallMarkers calls={failedCalls.get(item.index)!} onOpenCalls={onOpenCalls} /> : null}
            {systemPrompts?.has(item.index) ? <SystemPromptMarker shift={systemPrompts.get(item.index)!} /> : null}
            <MessageRow
              index={item.index}
              message={messages[item.index]}
              tokens={tokens?.[item.index]}
              approximate={approximate}
              layout={layout[item.index]}
              callKeys={links.calls[item.index] ?? NO_KEYS}
              resultKey={links.result[item.index]}
              otherEnd={otherEnd}
              effect={effects?.[item.index]}
              selected={selected === item.index}
              hoveredCall={hoveredCall}
              expanded={open.has(item.index)}
              onToggleExpanded={toggleExpanded}
              onSelect={onSelect}
              onHoverCall={onHoverCall}
              onJump={jump}
              onOpenHandle={onOpenHandle}
              onFork={onFork}
              facts={facts?.[item.index]}
              compaction={compactions?.get(item.index)}
              subagents={subagents}
            />
          </div>
        ))}
      </div>
      {failedCalls?.has(messages.length) ? <FailedCallMarkers calls={failedCalls.get(messages.length)!} onOpenCalls={onOpenCalls} /> : null}
    </div>
  );
}
