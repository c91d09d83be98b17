import { sameJson, type Message } from "@/lib/context/light";
import type { MessageMark, RunResult } from "./protocol";

/**
 * A run result as the worker posts it. The per-message arrays of the loaded
 * conversation (`kept`, `marks`) only say what changed since the result the
 * client already holds (`base`), in typed arrays that are transferred, not
 * copied; the history and its token counts are left out when they are the
 * same messages as `base`'s. A result with `base: null` carries everything.
 */
export interface WireRunResult extends Omit<RunResult, "kept" | "marks" | "history" | "tokens"> {
  /** The revision this result changes; `null`: nothing is taken from an earlier one. */
  base: number | null;
  /** Messages in the loaded conversation (the length of `kept` and `marks`). */
  length: number;
  /** Indices of the loaded messages whose `kept` or `marks` differ from `base`'s (every index when `base` is null). */
  changed: Int32Array;
  /** Per changed message: its new `kept`. */
  kept: Int32Array;
  /** Per changed message: where its marks start in `markIds`; one more entry ends the last. */
  markStarts: Int32Array;
  /** Marks as indices into `markTable`. */
  markIds: Int32Array;
  markTable: MessageMark[];
  /** Absent: the same messages as `base`'s history (and so the same counts). */
  history?: Message[];
  tokens?: number[];
}

function sameMarks(first: readonly MessageMark[] | undefined, second: readonly MessageMark[]): boolean {
  if (!first || first.length !== second.length) return false;
  return first.every((mark, index) => mark.processor === second[index].processor && mark.kind === second[index].kind && mark.handle === second[index].handle);
}

/** The same messages: the same objects, or for those a processor wrote anew (a summary), the same fields. */
function sameMessages(first: readonly Message[], second: readonly Message[]): boolean {
  return first.length === second.length && first.every((message, index) => sameJson(message, second[index]));
}

/** The worker's side: encodes each result against the last one it posted (reset when another conversation loads). */
export class RunEncoder {
  private last?: RunResult;

  reset(): void {
    this.last = undefined;
  }

  encode(result: RunResult): { wire: WireRunResult; transfer: ArrayBuffer[] } {
    const { kept, marks, history, tokens, ...rest } = result;
    const base = this.last && this.last.kept.length === kept.length ? this.last : undefined;
    const changed: number[] = [];
    for (let index = 0; index < kept.length; index += 1) {
      if (!base || base.kept[index] !== kept[index] || !sameMarks(base.marks[index], marks[index])) changed.push(index);
    }
    const table: MessageMark[] = [];
    const tableIndex = new Map<string, number>();
    const markStarts = new Int32Array(changed.length + 1);
    const ids: number[] = [];
    changed.forEach((index, at) => {
      markStarts[at] = ids.length;
      for (const mark of marks[index]) {
        const key = `${mark.processor}\u0000${mark.kind}\u0000${mark.handle ?? ""}`;
        let id = tableIndex.get(key);
        if (id === undefined) {
          id =
            table.push(
              mark.handle === undefined ? { processor: mark.processor, kind: mark.kind } : { processor: mark.processor, kind: mark.kind, handle: mark.handle },
            ) - 1;
          tableIndex.set(key, id);
        }
        ids.push(id);
      }
    });
    markStarts[changed.length] = ids.length;
    const wire: WireRunResult = {
      ...rest,
      base: base ? base.revision : null,
      length: kept.length,
      changed: Int32Array.from(changed),
      kept: Int32Array.from(changed, (index) => kept[index]),
      markStarts,
      markIds: Int32Array.from(ids),
      markTable: table,
      ...(base && sameMessages(base.history, history) ? {} : { history, tokens }),
    };
    this.last = result;
    return { wire, transfer: [wire.changed.buffer, wire.kept.buffer, wire.markStarts.buffer, wire.markIds.buffer] as ArrayBuffer[] };
  }
}

/** The page's side: rebuilds whole results from the worker's, in the order they arrive. */
export class RunDecoder {
  private last?: RunResult;

  reset(): void {
    this.last = undefined;
  }

  decode(wire: WireRunResult): RunResult {
    const { base, length, changed, kept: keptChanges, markStarts, markIds, markTable, history, tokens, ...rest } = wire;
    const previous = base === null ? undefined : this.last;
    if (base !== null && previous?.revision !== base) throw new Error(`pipeline result ${wire.revision} changes run ${base}, which this page does not hold`);
    const kept = previous ? previous.kept.slice() : new Array<number>(length).fill(-1);
    const marks = previous ? previous.marks.slice() : Array.from({ length }, (): MessageMark[] => []);
    changed.forEach((index, at) => {
      kept[index] = keptChanges[at];
      const list: MessageMark[] = [];
      for (let id = markStarts[at]; id < markStarts[at + 1]; id += 1) list.push({ ...markTable[markIds[id]] });
      marks[index] = list;
    });
    const result: RunResult = {
      ...rest,
      // The same messages as before: a new array of them, as a new result always brings.
      history: history ?? [...previous!.history],
      tokens: tokens ?? [...previous!.tokens],
      kept,
      marks,
    };
    this.last = result;
    return result;
  }
}
