/**
 * OpenHands' timestamps and `llm_metrics` (the `Metrics.get()` an event
 * carries: accumulated cost and token usage, per-call `token_usages` and
 * `response_latencies`, each naming the response it belongs to).
 */
import { type CallFacts, isoTime, readReportedUsage } from "@/lib/formats";
import { isRecord } from "../../issues";
import { completionFacts } from "../litellm-message";

/** What the events' metrics say per response id, and the last totals the run reported. */
export interface RunMetrics {
  usageByResponse: Map<string, Record<string, unknown>>;
  latencyByResponse: Map<string, number>;
  /** The last event's `llm_metrics` without its per-call lists (accumulated cost and usage, budget). */
  totals?: Record<string, unknown>;
}

/** Gathers the metrics of every event; later events repeat earlier calls, which changes nothing. */
export function collectMetrics(events: readonly Record<string, unknown>[]): RunMetrics {
  const metrics: RunMetrics = { usageByResponse: new Map(), latencyByResponse: new Map() };
  for (const event of events) {
    const llm = event.llm_metrics;
    if (!isRecord(llm)) continue;
    for (const usage of Array.isArray(llm.token_usages) ? llm.token_usages : [])
      if (isRecord(usage) && typeof usage.response_id === "string" && usage.response_id !== "") metrics.usageByResponse.set(usage.response_id, usage);
    for (const latency of Array.isArray(llm.response_latencies) ? llm.response_latencies : [])
      if (isRecord(latency) && typeof latency.response_id === "string" && typeof latency.latency === "number")
        metrics.latencyByResponse.set(latency.response_id, latency.latency);
    const { token_usages: _usages, response_latencies: _latencies, costs: _costs, ...totals } = llm;
    metrics.totals = totals;
  }
  return metrics;
}

/**
 * An event's time. OpenHands writes `datetime.now().isoformat()`, without a
 * zone; its runtimes run in UTC, so a time without one is read as UTC rather
 * than as the importing machine's local time.
 */
export function eventTime(value: unknown): string | undefined {
  if (typeof value === "string" && /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return isoTime(`${value}Z`);
  return isoTime(value);
}

/** The facts of the call an action came from: its response, else the metrics' record of it, and the event's time. */
export function callFacts(response: Record<string, unknown>, timestamp: unknown, metrics: RunMetrics): CallFacts {
  const facts: CallFacts = completionFacts(response) ?? {};
  const at = eventTime(timestamp);
  if (at !== undefined) facts.at = at;
  const id = typeof response.id === "string" ? response.id : undefined;
  const recorded = id === undefined ? undefined : metrics.usageByResponse.get(id);
  if (facts.usage === undefined && recorded !== undefined) {
    const usage = readReportedUsage(recorded);
    if (usage !== undefined) facts.usage = usage;
    if (facts.model === undefined && typeof recorded.model === "string") facts.model = recorded.model;
  }
  const latency = id === undefined ? undefined : metrics.latencyByResponse.get(id);
  // OpenHands measures latencies in seconds.
  if (latency !== undefined) facts.latencyMs = Math.round(latency * 1000);
  return facts;
}
