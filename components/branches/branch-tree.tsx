"use client";

import { useMemo } from "react";
import type { BranchTreeNode } from "@/lib/db";
import { forkLabel, layoutBranchTree } from "./branch-layout";
import styles from "./branch-tree.module.css";
import { safeLabel } from "@/components/ui/reveal-invisible";
import { SafeText } from "@/components/ui/safe-text";

export interface BranchTreeProps {
  tree: readonly BranchTreeNode[];
  currentBranchId: string | null;
  /** A branch was clicked: switch to it. */
  onSwitch: (branchId: string) => void;
  /** Branches ticked for comparison (at most two); omit to hide the checkboxes. */
  compared?: readonly string[];
  onToggleCompare?: (branchId: string) => void;
}

const ROW_HEIGHT = 44;
const INDENT = 18;
// Level with the branch name, the row's first line.
const DOT_OFFSET = 13;
const number = (value: number) => value.toLocaleString("en");

/**
 * The conversation's branches as an indented tree: elbows from each parent
 * to its children, the fork point on each child, the current branch
 * highlighted. A click switches; a checkbox picks branches to compare.
 */
export function BranchTree({ tree, currentBranchId, onSwitch, compared, onToggleCompare }: BranchTreeProps) {
  const layout = useMemo(() => layoutBranchTree(tree, { rowHeight: ROW_HEIGHT, indent: INDENT, dotOffset: DOT_OFFSET }), [tree]);
  if (layout.rows.length === 0) return <p className={styles.empty}>No branches yet: import or load a conversation.</p>;
  const comparing = compared !== undefined && onToggleCompare !== undefined;
  return (
    <div className={styles.tree}>
      <svg className={styles.links} width={layout.width} height={layout.height} aria-hidden="true">
        {layout.links.map((link) => (
          <path key={link.childId} className={styles.link} d={link.path} />
        ))}
        {layout.rows.map((row) => (
          <circle key={row.branch.id} className={styles.dot} data-current={row.branch.id === currentBranchId || undefined} cx={row.x} cy={row.y} r={5} />
        ))}
      </svg>
      <ol className={styles.list} aria-label="Branches">
        {layout.rows.map((row) => {
          const { branch } = row;
          const current = branch.id === currentBranchId;
          const ticked = compared?.includes(branch.id) ?? false;
          return (
            <li key={branch.id} className={styles.row} style={{ height: ROW_HEIGHT, paddingLeft: row.x + INDENT / 2 + 4 }} data-current={current || undefined}>
              <button
                type="button"
                className={styles.switch}
                aria-current={current ? "true" : undefined}
                aria-label={`${current ? "Current branch" : "Switch to branch"} ${branch.name}`}
                title={safeLabel(branch.name)}
                onClick={() => onSwitch(branch.id)}
              >
                <span className={styles.name}>
                  <SafeText text={branch.name} />
                  {current ? <span className={styles.badge}>current</span> : null}
                </span>
                <span className={styles.meta}>
                  {number(branch.length)} messages
                  {branch.parentId !== null ? ` · ${number(row.ownMessages)} own · ` : " · "}
                  <span className={styles.fork} title={branch.forkPosition ? `inherits messages #0–#${branch.forkPosition - 1} of its parent` : undefined}>
                    {forkLabel(branch)}
                  </span>
                </span>
              </button>
              {comparing ? (
                <label className={styles.compare}>
                  <input
                    type="checkbox"
                    checked={ticked}
                    disabled={!ticked && (compared?.length ?? 0) >= 2}
                    onChange={() => onToggleCompare?.(branch.id)}
                    aria-label={`Compare ${branch.name}`}
                  />
                  compare
                </label>
              ) : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
