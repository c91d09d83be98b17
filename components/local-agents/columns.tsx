"use client";

import Link from "next/link";
import type { ColumnDef } from "@tanstack/react-table";
import { LOCAL_AGENT_LABELS, type LocalSessionEntry } from "@/lib/local-agents/types";
import ui from "@/components/ui/ui.module.css";
import { formatBytes, formatWhen, projectName } from "./format";
import styles from "./local-agents.module.css";

export interface SessionActions {
  /** The path of the session an action is running on, or null. */
  busyPath: string | null;
  onImport: (session: LocalSessionEntry) => void;
  onFollow: (session: LocalSessionEntry) => void;
}

/** Columns whose cells are right-aligned figures. */
export const NUMERIC_COLUMNS: ReadonlySet<string> = new Set(["bytes"]);

const KIND_NOTE = { session: null, subagent: "subagent", checkpoint: "saved chat" } as const;

function fileName(path: string): string {
  return path.split(/[\\/]/).at(-1) ?? path;
}

/** The Local agents table's columns: agent, project, times, model, size, live, and the row's actions. */
export function sessionColumns(actions: SessionActions): ColumnDef<LocalSessionEntry>[] {
  return [
    {
      id: "agent",
      accessorFn: (row) => LOCAL_AGENT_LABELS[row.agent],
      header: "Agent",
      cell: ({ row }) => (
        <span className={styles.project}>
          {LOCAL_AGENT_LABELS[row.original.agent]}
          {KIND_NOTE[row.original.kind] ? <span className={styles.muted}>{KIND_NOTE[row.original.kind]}</span> : null}
        </span>
      ),
    },
    {
      id: "project",
      accessorKey: "project",
      header: "Project",
      cell: ({ row }) => (
        <span className={styles.project} title={row.original.path}>
          <span>{row.original.project ? projectName(row.original.project) : "—"}</span>
          <span className={styles.muted}>{fileName(row.original.path)}</span>
        </span>
      ),
    },
    {
      id: "startedAt",
      accessorKey: "startedAt",
      header: "Started",
      cell: ({ row }) => <time dateTime={row.original.startedAt}>{formatWhen(row.original.startedAt)}</time>,
    },
    {
      id: "modifiedAt",
      accessorKey: "modifiedAt",
      header: "Last written",
      cell: ({ row }) => <time dateTime={row.original.modifiedAt}>{formatWhen(row.original.modifiedAt)}</time>,
    },
    { id: "model", accessorFn: (row) => row.model ?? "", header: "Model", cell: ({ row }) => row.original.model ?? "—" },
    { id: "bytes", accessorKey: "bytes", header: "Size", cell: ({ row }) => formatBytes(row.original.bytes) },
    {
      id: "live",
      accessorFn: (row) => (row.following ? 2 : row.live ? 1 : 0),
      header: "Live",
      cell: ({ row }) =>
        row.original.following ? (
          <span className={styles.badge}>following</span>
        ) : row.original.live ? (
          <span className={styles.badge} title="Written to in the last minute: the agent is probably still running">
            live
          </span>
        ) : null,
    },
    {
      id: "actions",
      enableSorting: false,
      header: () => <span className={styles.muted}>Actions</span>,
      cell: ({ row }) => {
        const session = row.original;
        const busy = actions.busyPath === session.path;
        return (
          <span className={styles.rowActions}>
            {session.conversationId ? (
              <Link className={ui.button} href={`/c/${encodeURIComponent(session.conversationId)}`} aria-label={`Open ${fileName(session.path)}`}>
                Open
              </Link>
            ) : (
              <button
                type="button"
                className={ui.button}
                disabled={actions.busyPath !== null}
                onClick={() => actions.onImport(session)}
                aria-label={`Import ${fileName(session.path)}`}
              >
                {busy ? "Importing…" : "Import"}
              </button>
            )}
            <button
              type="button"
              className={ui.button}
              data-variant="primary"
              disabled={actions.busyPath !== null}
              onClick={() => actions.onFollow(session)}
              aria-label={`Follow ${fileName(session.path)}`}
              title="Import it and keep importing what the agent writes, live"
            >
              {session.following ? "Open followed" : "Follow"}
            </button>
          </span>
        );
      },
    },
  ];
}
