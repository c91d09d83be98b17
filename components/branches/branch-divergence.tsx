import { contentText } from "@/lib/context/light";
import type { BranchTreeNode, MessageRecord } from "@/lib/db";
import type { Divergence, SharedLineage } from "./divergence";
import styles from "./branch-divergence.module.css";
import { SafeText } from "@/components/ui/safe-text";

export interface BranchDivergenceProps {
  left: BranchTreeNode;
  right: BranchTreeNode;
  divergence: Divergence;
  lineage?: SharedLineage | null;
}

const number = (value: number) => value.toLocaleString("en");

function describeCall(message: MessageRecord["message"]): string {
  if (message.role !== "assistant" || !message.tool_calls?.length) return "";
  return message.tool_calls.map((call) => `→ ${call.function.name}(${call.function.arguments})`).join("\n");
}

function Side({ branch, message, position }: { branch: BranchTreeNode; message: MessageRecord | null; position: number }) {
  const text = message ? [contentText(message.message), describeCall(message.message)].filter(Boolean).join("\n") : "";
  return (
    <section className={styles.side} aria-label={`First differing message of ${branch.name}`}>
      <h4>
        <SafeText text={branch.name} /> <span>{number(branch.length)} messages</span>
      </h4>
      {message ? (
        <div className={styles.message}>
          <span className={styles.role} data-role={message.message.role}>
            #{message.position} {message.message.role}
          </span>
          <pre className={styles.content}>{text ? <SafeText text={text.length > 2000 ? `${text.slice(0, 1999)}…` : text} /> : "(empty)"}</pre>
        </div>
      ) : (
        <p className={styles.ended}>Ends here: no message #{position}.</p>
      )}
    </section>
  );
}

/** Where two branches part: the shared prefix, then each side's first differing message, side by side. */
export function BranchDivergence({ left, right, divergence, lineage }: BranchDivergenceProps) {
  const { commonPrefix } = divergence;
  const shared =
    commonPrefix === 0 ? "no messages in common" : `${number(commonPrefix)} message${commonPrefix === 1 ? "" : "s"} in common (#0–#${commonPrefix - 1})`;
  return (
    <div className={styles.divergence} role="region" aria-label={`Divergence of ${left.name} and ${right.name}`}>
      <p className={styles.summary}>
        <strong>
          <SafeText text={left.name} />
        </strong>{" "}
        and{" "}
        <strong>
          <SafeText text={right.name} />
        </strong>
        : {shared}
        {divergence.identical ? "; identical histories." : `; they diverge at message ${commonPrefix}.`}
      </p>
      {lineage ? (
        <p className={styles.lineage}>
          Common ancestor <SafeText text={lineage.ancestor.name} />: both inherit its first {number(lineage.sharedPrefix)} messages.
        </p>
      ) : null}
      {divergence.identical ? null : (
        <div className={styles.sides}>
          <Side branch={left} message={divergence.left} position={commonPrefix} />
          <Side branch={right} message={divergence.right} position={commonPrefix} />
        </div>
      )}
    </div>
  );
}
