import type { CallSummary } from "@/lib/calls/types";
import type { WireFormat } from "@/lib/formats/types";
import { formatNumber } from "@/components/pipeline/format";

const PROTOCOL_LABELS: Readonly<Record<WireFormat, string>> = {
  "openai-chat": "Chat Completions",
  "openai-responses": "Responses",
  anthropic: "Anthropic Messages",
  gemini: "Gemini",
};

export function protocolLabel(protocol: WireFormat | null): string {
  return protocol ? PROTOCOL_LABELS[protocol] : "unknown";
}

/** "12:04:31" in the viewer's time zone; the full date in `title`. */
export function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** "$0.0123", fewer digits for larger sums; "—" when unknown (no usage reported, or no prices). */
export function formatCost(cost: number | null): string {
  if (cost === null) return "—";
  if (cost === 0) return "$0";
  if (cost >= 1) return `$${cost.toFixed(2)}`;
  return `$${cost.toPrecision(2).replace(/^0\./, "0.")}`;
}

export function formatLatency(ms: number | null): string {
  if (ms === null) return "—";
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s` : `${formatNumber(ms)} ms`;
}

/** The status cell: "429", "200", "running", or the error type when no HTTP status came back. */
export function statusText(call: CallSummary): string {
  if (call.outcome === "pending") return "running";
  return call.status === null ? (call.error?.type ?? "—") : String(call.status);
}

/** The error cell: the upstream's message, with when to retry. */
export function errorText(call: CallSummary): string {
  if (!call.error) return "";
  return call.retryAfter ? `${call.error.message} (retry after ${call.retryAfter})` : call.error.message;
}

/** The retries cell: "retry 2" for the third attempt at one request. */
export function retriesText(call: CallSummary): string {
  return call.retries === 0 ? "" : `retry ${call.retries}`;
}

/** Reported input / output / cached tokens, "—" when the provider sent no usage. */
export function usageCells(call: CallSummary): { input: string; output: string; cached: string } {
  if (!call.usage) return { input: "—", output: "—", cached: "—" };
  return { input: formatNumber(call.usage.input), output: formatNumber(call.usage.output), cached: formatNumber(call.usage.cached) };
}

/** A call's one-line description for screen readers and titles. */
export function describeCall(call: CallSummary, number: number): string {
  const what =
    call.outcome === "failed"
      ? `failed with ${statusText(call)}${call.error ? `: ${errorText(call)}` : ""}`
      : call.outcome === "pending"
        ? "running"
        : `answered ${statusText(call)}`;
  return `Call ${number}, ${call.model ?? "unknown model"}, ${what}`;
}
