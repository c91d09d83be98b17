"use client";

import { useCallback, useMemo, useState } from "react";
import { diffValues } from "@/lib/api/diff";
import type { CheckpointEntry, SummaryEntry } from "@/lib/client";
import ui from "@/components/ui/ui.module.css";
import { inHistoryOrder, type CheckpointRow } from "./checkpoint-format";
import { CheckpointDetail } from "./checkpoint-detail";
import { CheckpointDiffView } from "./checkpoint-diff";
import { CheckpointsEmpty } from "./checkpoints-empty";
import { CheckpointDataTable } from "./data-table";
import styles from "./checkpoints.module.css";

export interface CheckpointBrowserProps {
  /** The branch's own and inherited checkpoints, as `GET /api/branches/[id]/checkpoints` returns them. */
  checkpoints: readonly CheckpointEntry[];
  /** Branch names by id (the tree's); an unknown branch shows its id. */
  branchNames: Readonly<Record<string, string>>;
  /** "Checkpoint now" (`POST /api/branches/[id]/compact { force: true }`); omit to hide the button. */
  onCheckpointNow?: () => void;
  checkpointing?: boolean;
  /** What the last "Checkpoint now" said. */
  checkpointMessage?: string | null;
  /** The summary chain the branch sees (`GET /api/branches/[id]/summaries`): a diff shows each side's summary text. */
  summaries?: readonly SummaryEntry[];
}

/** The Checkpoints tab: the table, the opened checkpoint's state, and the diff of two selected ones. */
export function CheckpointBrowser({ checkpoints, branchNames, onCheckpointNow, checkpointing = false, checkpointMessage, summaries }: CheckpointBrowserProps) {
  const rows = useMemo<CheckpointRow[]>(
    () => checkpoints.map((checkpoint) => ({ ...checkpoint, branchName: branchNames[checkpoint.branchId] ?? checkpoint.branchId })),
    [checkpoints, branchNames],
  );
  const [selection, setSelection] = useState<string[]>([]);
  const [openId, setOpenId] = useState<string | null>(null);
  const onOpen = useCallback((checkpoint: CheckpointRow) => setOpenId(checkpoint.id), []);

  const byId = useMemo(() => new Map(rows.map((row) => [row.id, row])), [rows]);
  const opened = openId === null ? undefined : byId.get(openId);
  const picked = selection.map((id) => byId.get(id)).filter((row): row is CheckpointRow => row !== undefined);
  const [first, second] = picked;
  const diff = useMemo(() => {
    if (!first || !second) return null;
    const [from, to] = inHistoryOrder(first, second);
    const textOf = (checkpoint: CheckpointRow) => summaries?.find((summary) => summary.id === checkpoint.summaryId)?.text;
    return { from, to, diff: diffValues(from.values, to.values), summaries: summaries ? { from: textOf(from), to: textOf(to) } : undefined };
  }, [first, second, summaries]);

  if (rows.length === 0) return <CheckpointsEmpty onCheckpointNow={onCheckpointNow} pending={checkpointing} message={checkpointMessage} />;

  return (
    <div className={styles.browser}>
      <div className={styles.actions}>
        {onCheckpointNow ? (
          <button type="button" className={ui.button} onClick={onCheckpointNow} disabled={checkpointing}>
            {checkpointing ? "Checkpointing…" : "Checkpoint now"}
          </button>
        ) : null}
        <span className={styles.muted}>
          {picked.length < 2 ? `Select two checkpoints to diff them (${picked.length} of 2).` : "Diff of the two selected checkpoints below."}
        </span>
        {picked.length > 0 ? (
          <button type="button" className={ui.button} data-variant="ghost" onClick={() => setSelection([])}>
            Clear selection
          </button>
        ) : null}
      </div>
      {checkpointMessage ? <p className={styles.message}>{checkpointMessage}</p> : null}
      <CheckpointDataTable rows={rows} selection={selection} onSelectionChange={setSelection} openId={openId} onOpen={onOpen} />
      {diff ? <CheckpointDiffView from={diff.from} to={diff.to} diff={diff.diff} summaries={diff.summaries} /> : null}
      {opened ? <CheckpointDetail checkpoint={opened} onClose={() => setOpenId(null)} /> : null}
    </div>
  );
}
