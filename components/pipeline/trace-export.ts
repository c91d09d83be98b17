import type { StepSummary } from "@/lib/request";
import { toCsv } from "@/components/ui/csv";

/** A run's trace as CSV: one row per processor step. */
export function traceCsv(steps: readonly StepSummary[]): string {
  return toCsv(
    ["step", "processor", "messages_before", "messages_after", "tokens_before", "tokens_after", "ms", "effects", "state_keys"],
    steps.map((step, index) => [
      index,
      step.processor,
      step.messagesBefore,
      step.messagesAfter,
      step.tokensBefore,
      step.tokensAfter,
      Number(step.ms.toFixed(3)),
      step.effects.length,
      step.stateKeys.join(" "),
    ]),
  );
}

/** A run's trace as JSON: the steps as the inspector shows them (histories left out). */
export function traceJson(steps: readonly StepSummary[]): string {
  return JSON.stringify({ steps }, null, 2);
}
