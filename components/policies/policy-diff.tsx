import type { PolicyDifference } from "@/lib/policies";
import { formatPolicyValue, policyFieldLabel } from "./policy-format";
import styles from "./policies.module.css";

export interface PolicyDiffProps {
  fromLabel: string;
  toLabel: string;
  differences: readonly PolicyDifference[];
}

/** The fields where two policies differ, one row each. */
export function PolicyDiff({ fromLabel, toLabel, differences }: PolicyDiffProps) {
  if (differences.length === 0) return <p className={styles.muted}>The two policies are the same.</p>;
  return (
    <table className={styles.table} aria-label="Policy differences">
      <thead>
        <tr>
          <th scope="col">Setting</th>
          <th scope="col">{fromLabel}</th>
          <th scope="col">{toLabel}</th>
        </tr>
      </thead>
      <tbody>
        {differences.map((difference) => (
          <tr key={difference.field}>
            <th scope="row">{policyFieldLabel(difference.field)}</th>
            <td>{formatPolicyValue(difference.field, difference.from)}</td>
            <td>{formatPolicyValue(difference.field, difference.to)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
