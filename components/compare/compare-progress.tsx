"use client";

import type { ComparedPolicy } from "@/lib/context/light";
import { usePlaygroundStore } from "@/lib/store/provider";
import styles from "./compare.module.css";

/**
 * The running comparison's progress bar. It alone follows the progress (a message per replayed call), so the
 * panel around it, with the last comparison's charts, table and drill-down, is not drawn again for each.
 */
export function CompareProgress({ policies }: { policies: readonly ComparedPolicy[] }) {
  const comparing = usePlaygroundStore((state) => state.comparing);
  const progress = usePlaygroundStore((state) => state.compareProgress);
  if (!comparing) return null;
  const done = progress ? progress.finished * progress.total + progress.done : 0;
  const total = progress ? progress.runs * progress.total : 1;
  const policy = progress ? (progress.policy === "raw" ? "raw" : (policies.find((entry) => entry.id === progress.policy)?.label ?? progress.policy)) : "";
  return (
    <div className={styles.section}>
      <progress className={styles.progress} aria-label="Comparison progress" max={total} value={done} />
      <p className={styles.muted} role="status">
        {progress ? `Replaying ${policy}: call ${progress.done} of ${progress.total} (run ${progress.finished + 1} of ${progress.runs})` : "Starting…"}
      </p>
    </div>
  );
}
