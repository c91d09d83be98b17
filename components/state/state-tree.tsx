"use client";

import { useState } from "react";
import { countOrigins, type StateOrigin, type StateTreeEntry, type StateTreeNode } from "./state-model";
import styles from "./state-tree.module.css";

export interface ContextStateTreeProps {
  nodes: readonly StateTreeNode[];
}

const ORIGIN_LABELS: Record<StateOrigin, string> = { own: "own", inherited: "inherited", shadows: "shadows" };
const ORIGIN_HELP: Record<StateOrigin, string> = {
  own: "written in this context",
  inherited: "read from an ancestor, up to the fork",
  shadows: "written here, hiding an ancestor's value",
};

function Entry({ entry, node }: { entry: StateTreeEntry; node: string }) {
  const [open, setOpen] = useState(false);
  const items = entry.items ?? [];
  return (
    <li className={styles.entry} data-origin={entry.origin}>
      <span className={styles.badge} data-origin={entry.origin} title={ORIGIN_HELP[entry.origin]}>
        {ORIGIN_LABELS[entry.origin]}
      </span>
      {items.length > 0 ? (
        <button
          type="button"
          className={styles.entryToggle}
          aria-expanded={open}
          aria-label={`${entry.key} of ${node}, ${entry.origin}: ${entry.summary}`}
          onClick={() => setOpen(!open)}
        >
          <code className={styles.key}>{entry.key}</code> <span className={styles.summary}>{entry.summary}</span>
        </button>
      ) : (
        <span>
          <code className={styles.key}>{entry.key}</code> <span className={styles.summary}>{entry.summary}</span>
        </span>
      )}
      {open ? (
        <ul className={styles.items} aria-label={`${entry.key} of ${node} (${entry.origin})`}>
          {items.map((item) => (
            <li key={item.id}>{item.label}</li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function Node({ node }: { node: StateTreeNode }) {
  const [open, setOpen] = useState(true);
  const counts = countOrigins([{ ...node, children: [] }]);
  const countText = (Object.keys(counts) as StateOrigin[])
    .filter((origin) => counts[origin] > 0)
    .map((origin) => `${counts[origin]} ${origin}`)
    .join(" · ");
  return (
    <li className={styles.node} data-kind={node.kind} data-current={node.current || undefined}>
      <button
        type="button"
        className={styles.nodeToggle}
        aria-expanded={open}
        aria-label={`${node.kind === "branch" ? "Branch" : "Context"} ${node.label}`}
        onClick={() => setOpen(!open)}
      >
        <span className={styles.caret} aria-hidden="true">
          {open ? "▾" : "▸"}
        </span>
        <span className={styles.kind}>{node.kind}</span>
        <strong>{node.label}</strong>
        {node.current ? <span className={styles.current}>current</span> : null}
        <span className={styles.counts}>{countText || "no state"}</span>
      </button>
      {open ? (
        <div className={styles.body}>
          {node.note ? <p className={styles.note}>{node.note}</p> : null}
          {node.entries.length > 0 ? (
            <ul className={styles.entries} aria-label={`State of ${node.label}`}>
              {node.entries.map((entry) => (
                <Entry key={`${entry.key}:${entry.origin}`} entry={entry} node={node.label} />
              ))}
            </ul>
          ) : null}
          {node.children.length > 0 ? (
            <ul className={styles.children}>
              {node.children.map((child) => (
                <Node key={child.id} node={child} />
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** Contexts and their state keys across forks: a legend, totals, and each node expandable. */
export function ContextStateTree({ nodes }: ContextStateTreeProps) {
  const totals = countOrigins(nodes);
  if (nodes.length === 0) return <p className={styles.empty}>No contexts yet: load a conversation and the pipeline run shows its state here.</p>;
  return (
    <div className={styles.tree}>
      <ul className={styles.legend} aria-label="Legend">
        {(Object.keys(ORIGIN_LABELS) as StateOrigin[]).map((origin) => (
          <li key={origin}>
            <span className={styles.badge} data-origin={origin}>
              {ORIGIN_LABELS[origin]}
            </span>{" "}
            {ORIGIN_HELP[origin]} <span className={styles.total}>({totals[origin]})</span>
          </li>
        ))}
      </ul>
      <ul className={styles.root} aria-label="Context state tree">
        {nodes.map((node) => (
          <Node key={node.id} node={node} />
        ))}
      </ul>
    </div>
  );
}
