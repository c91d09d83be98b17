import type { CallSummary } from "@/lib/calls/types";
import type { LabelConversation } from "./live";

export interface RecordingSummaryInput {
  label: string;
  url: string;
  conversations: LabelConversation[];
  /** This run's calls, as the calls API describes them. */
  calls: CallSummary[];
  /** Calls seen starting whose outcome was not recorded in time. */
  unrecorded: number;
  exitCode: number;
}

const number = new Intl.NumberFormat("en-US");

function plural(count: number, word: string): string {
  return `${number.format(count)} ${word}${count === 1 ? "" : "s"}`;
}

function dollars(value: number): string {
  return value >= 0.01 ? `$${value.toFixed(2)}` : `$${value.toFixed(4)}`;
}

/** PK11: the one-screen summary `record` prints when the command exits. */
export function summarizeRecording(input: RecordingSummaryInput): string[] {
  const { calls } = input;
  const total = calls.length + input.unrecorded;
  const lines = [`context-lab record: "${input.label}" made ${plural(total, "call")}; the command exited with ${input.exitCode}`];
  if (total === 0) {
    lines.push("  no call reached the proxy: does the command read OPENAI_BASE_URL or ANTHROPIC_BASE_URL? (context-lab record --help)");
    return lines;
  }
  for (const conversation of input.conversations) {
    const count = calls.filter((call) => call.conversationId === conversation.id).length;
    lines.push(`  ${input.url}/c/${conversation.id}  ${plural(count, "call")}  (${conversation.title})`);
  }
  const ok = calls.filter((call) => call.outcome === "ok").length;
  const failed = calls.filter((call) => call.outcome === "failed").length;
  const pending = total - ok - failed;
  lines.push(
    `  calls        ${number.format(total)}: ${number.format(ok)} ok, ${number.format(failed)} failed${pending ? `, ${number.format(pending)} not recorded yet` : ""}`,
  );
  const reported = calls.filter((call) => call.usage !== null);
  const inputTokens = reported.reduce((sum, call) => sum + (call.usage?.input ?? 0), 0);
  const output = reported.reduce((sum, call) => sum + (call.usage?.output ?? 0), 0);
  const cached = reported.reduce((sum, call) => sum + (call.usage?.cached ?? 0), 0);
  const unreported = calls.length - reported.length;
  lines.push(
    `  tokens       ${number.format(inputTokens)} in, ${number.format(output)} out${unreported ? ` (${plural(unreported, "call")} reported no usage)` : ""}`,
  );
  lines.push(
    inputTokens > 0
      ? `  cache hits   ${((100 * cached) / inputTokens).toFixed(1)}% of input tokens (${number.format(cached)} read from the cache)`
      : "  cache hits   unknown (no input tokens reported)",
  );
  const priced = calls.filter((call) => call.cost !== null);
  const cost = priced.reduce((sum, call) => sum + (call.cost ?? 0), 0);
  const unpriced = calls.length - priced.length;
  lines.push(`  cost         ${priced.length ? dollars(cost) : "unknown"}${unpriced ? ` (${plural(unpriced, "call")} without a known price)` : ""}`);
  return lines;
}
