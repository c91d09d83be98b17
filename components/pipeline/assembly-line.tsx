import type { RequestView } from "@/lib/request";
import { formatNumber, plural } from "./format";
import styles from "./trace-table.module.css";

export interface AssemblyLineProps {
  request: Pick<RequestView, "summary" | "retrieved" | "candidate">;
  /** A typed next turn was added at the end. */
  withTurn: boolean;
}

/**
 * What the processors were given, before the trace shows what each did: the
 * saved summary in place of the messages it covers, retrieved memories, the
 * messages after the summary and the typed turn.
 */
export function AssemblyLine({ request, withTurn }: AssemblyLineProps) {
  const parts: string[] = [];
  if (request.summary) parts.push(`${request.summary.label} in place of messages ${request.summary.fromPosition}–${request.summary.toPosition - 1}`);
  if (request.retrieved.length > 0)
    parts.push(`${plural(request.retrieved.length, "retrieved memory", "retrieved memories")} (${request.retrieved.map((memory) => memory.label).join(", ")})`);
  parts.push(request.summary ? `the messages after it` : "the conversation as stored");
  if (withTurn) parts.push("the typed next turn");
  return (
    <p className={styles.assembly} aria-label="What the processors received">
      The processors received {formatNumber(request.candidate)} messages: {parts.join(", then ")}.
    </p>
  );
}
