import { rangesSize, type MessageEffect, type MessageEffectKind } from "@/lib/context/light";
import { formatNumber } from "./format";

const ORDER: readonly MessageEffectKind[] = ["offloaded", "compressed", "summarised", "cleared", "masked", "dropped", "truncated"];

/** Messages touched per effect kind, in a fixed order: `[["dropped", 12]]`. */
export function countEffects(effects: readonly MessageEffect[]): [MessageEffectKind, number][] {
  const counts = new Map<MessageEffectKind, number>();
  for (const effect of effects) counts.set(effect.kind, (counts.get(effect.kind) ?? 0) + Math.max(1, rangesSize(effect.before)));
  return ORDER.filter((kind) => counts.has(kind)).map((kind) => [kind, counts.get(kind) ?? 0]);
}

/** "3 offloaded, 12 dropped", or "" when the step changed nothing. */
export function describeEffects(effects: readonly MessageEffect[]): string {
  return countEffects(effects)
    .map(([kind, count]) => `${formatNumber(count)} ${kind}`)
    .join(", ");
}
