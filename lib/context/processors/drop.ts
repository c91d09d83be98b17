import type { Message } from "../messages";
import type { MessageEffect, MessageEffectKind } from "../pipeline";

/** A history without the given indices, and the effect that records it. */
export function dropIndices(history: readonly Message[], indices: readonly number[], kind: MessageEffectKind): { history: Message[]; effects: MessageEffect[] } {
  if (indices.length === 0) return { history: [...history], effects: [] };
  const sorted = [...indices].sort((a, b) => a - b);
  const next: Message[] = [];
  let cursor = 0;
  for (let index = 0; index < history.length; index += 1) {
    if (cursor < sorted.length && sorted[cursor] === index) {
      while (cursor < sorted.length && sorted[cursor] === index) cursor += 1;
      continue;
    }
    next.push(history[index]);
  }
  return { history: next, effects: [{ kind, before: sorted, after: [] }] };
}
