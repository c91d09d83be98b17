"use client";

import { sameJson, type Message, type ToolCall } from "@/lib/context/light";
import type { DiffEntry } from "./message-diff";
import { ContentPreview, WordDiff } from "./word-diff";
import styles from "./step-diff.module.css";
import { SafeText } from "@/components/ui/safe-text";

const LABELS: Readonly<Record<DiffEntry["type"], string>> = { unchanged: "unchanged", removed: "removed", added: "added", replaced: "replaced" };

function sameCalls(left?: readonly ToolCall[], right?: readonly ToolCall[]): boolean {
  return sameJson(left ?? [], right ?? []);
}

/** One message of the step diff, with its position before → after, role, tool fields and content (word-diffed when replaced). */
export function StepDiffRow({ entry, before, after }: { entry: DiffEntry; before: readonly Message[]; after: readonly Message[] }) {
  const old = entry.type === "added" ? undefined : before[entry.before];
  const next = entry.type === "removed" ? undefined : after[entry.after];
  const message = (next ?? old) as Message;
  const position = `${entry.type === "added" ? "—" : `#${entry.before}`} → ${entry.type === "removed" ? "—" : `#${entry.after}`}`;
  const effect = "effect" in entry ? entry.effect : undefined;
  const roleChanged = old && next && old.role !== next.role;

  return (
    <li className={styles.row} data-type={entry.type} aria-label={`${LABELS[entry.type]} ${message.role} message ${position}`}>
      <div className={styles.rowHeader}>
        <span className={styles.badge} data-type={entry.type}>
          {LABELS[entry.type]}
        </span>
        {effect ? (
          <span className={styles.effect} data-effect={effect}>
            {effect}
          </span>
        ) : null}
        <span className={styles.role} data-role={message.role}>
          {roleChanged ? `${old.role} → ${next.role}` : message.role}
        </span>
        {message.name ? (
          <span className={styles.meta}>
            <SafeText text={message.name} />
          </span>
        ) : null}
        {old?.tool_call_id || next?.tool_call_id ? <ToolCallId old={old?.tool_call_id} next={next?.tool_call_id} /> : null}
        <span className={styles.position}>{position}</span>
      </div>
      {entry.type === "replaced" && old && next ? (
        <>
          {(old.content ?? "") === (next.content ?? "") ? (
            <p className={styles.note}>content unchanged</p>
          ) : (
            <WordDiff before={old.content ?? ""} after={next.content ?? ""} />
          )}
          {sameCalls(old.tool_calls, next.tool_calls) ? (
            <ToolCalls calls={next.tool_calls} />
          ) : (
            <>
              <ToolCalls calls={old.tool_calls} variant="removed" />
              <ToolCalls calls={next.tool_calls} variant="added" />
            </>
          )}
        </>
      ) : (
        <>
          <ContentPreview text={message.content ?? ""} variant={entry.type === "removed" ? "removed" : entry.type === "added" ? "added" : undefined} />
          <ToolCalls calls={message.tool_calls} variant={entry.type === "removed" ? "removed" : entry.type === "added" ? "added" : undefined} />
        </>
      )}
    </li>
  );
}

function ToolCallId({ old, next }: { old?: string; next?: string }) {
  const text = old && next && old !== next ? `${old} → ${next}` : (next ?? old);
  return (
    <span className={styles.meta} title="tool_call_id">
      ↩ {text}
    </span>
  );
}

function ToolCalls({ calls, variant }: { calls?: readonly ToolCall[]; variant?: "removed" | "added" }) {
  if (!calls || calls.length === 0) return null;
  return (
    <ul className={styles.toolCalls} aria-label={variant ? `Tool calls (${variant})` : "Tool calls"} data-variant={variant}>
      {calls.map((call, index) => (
        <li key={`${call.id}-${index}`}>
          <code>
            <SafeText text={call.function.name} />(
            {call.function.arguments.length > 300 ? `${call.function.arguments.slice(0, 300)}…` : call.function.arguments})
          </code>{" "}
          <span className={styles.meta}>{call.id}</span>
        </li>
      ))}
    </ul>
  );
}
