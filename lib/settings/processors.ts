import { PROCESSOR_KINDS, type ProcessorKind, type ProcessorSpec } from "@/lib/context/light";

/**
 * Every shipped processor exactly once: the list's own in its order, then any
 * it lacks, switched off, in the recommended order (a processor added to the
 * engine after settings were saved never switches itself on). The recommended
 * order is the default pipeline's, then the strategy processors (ST-5).
 */
export function completeProcessors(entries: readonly ProcessorSpec[]): ProcessorSpec[] {
  const listed = new Set(entries.map((entry) => entry.kind));
  const missing = PROCESSOR_KINDS.filter((kind) => !listed.has(kind)).map((kind) => ({ kind, enabled: false }));
  return [...entries.map(({ kind, enabled }) => ({ kind, enabled })), ...missing];
}

/** The recommended order, keeping each processor's switch. */
export function recommendedOrder(processors: readonly ProcessorSpec[]): ProcessorSpec[] {
  const enabled = new Map(processors.map((entry) => [entry.kind, entry.enabled]));
  return PROCESSOR_KINDS.map((kind) => ({ kind, enabled: enabled.get(kind) ?? false }));
}

export function isRecommendedOrder(processors: readonly ProcessorSpec[]): boolean {
  return processors.length === PROCESSOR_KINDS.length && processors.every((entry, index) => entry.kind === PROCESSOR_KINDS[index]);
}

/** A copy with `kind` moved to `index` (clamped). */
export function moveProcessor(processors: readonly ProcessorSpec[], kind: ProcessorKind, index: number): ProcessorSpec[] {
  const next = [...processors];
  const from = next.findIndex((entry) => entry.kind === kind);
  const to = Math.max(0, Math.min(next.length - 1, index));
  if (from < 0 || from === to) return next;
  const [entry] = next.splice(from, 1);
  next.splice(to, 0, entry);
  return next;
}

/** A copy with `kind` switched on or off. */
export function toggleProcessor(processors: readonly ProcessorSpec[], kind: ProcessorKind): ProcessorSpec[] {
  return processors.map((entry) => (entry.kind === kind ? { ...entry, enabled: !entry.enabled } : entry));
}
