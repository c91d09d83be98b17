import type { Message } from "../messages";
import { TOKENS_TO_PRIME_REPLY, type TiktokenCounter } from "../tokens/counter";
import { countBelow, scanStructure, StructureArrays, type ScanState } from "./structure";
import { countCopied } from "./work";

/** One piece of a history a processor made from another: a range of the other's positions, or a message it wrote. */
export type HistoryPiece = { readonly from: number; readonly to: number } | { readonly message: Message };

/** Running token totals of an index's own positions (`values[i]`: its first i), shared along appends like the structure. */
interface TokenSums {
  readonly values: number[];
  owner: HistoryIndex;
}

interface IndexParts {
  history: readonly Message[];
  /** The index the first `shared` positions are read from (a processor's input); `shared` is a round boundary of it. */
  base?: HistoryIndex;
  shared: number;
  /** The index `pieces` ranges point into. */
  origin?: HistoryIndex;
  pieces?: readonly HistoryPiece[];
  arrays: StructureArrays;
  state: ScanState;
  extended?: HistoryIndex;
}

/**
 * What the engine knows about one history array (E-I3): its rounds, system
 * messages and running token totals per counter (encoding and media rule), kept per array identity.
 * A history that extends one already indexed (an appended turn) reuses its
 * arrays and counts only what is new; a history a processor made from
 * another reads the part they share from that one. So a run costs what
 * changed and what is kept, not the whole history.
 */
export class HistoryIndex {
  readonly history: readonly Message[];
  readonly length: number;
  private readonly base?: HistoryIndex;
  private readonly shared: number;
  private readonly offset: Readonly<ScanState>;
  private readonly origin?: HistoryIndex;
  private readonly pieces?: readonly HistoryPiece[];
  private readonly arrays: StructureArrays;
  private readonly state: ScanState;
  private readonly extended?: WeakRef<HistoryIndex>;
  private readonly sums = new Map<string, TokenSums>();

  private constructor(parts: IndexParts) {
    this.history = parts.history;
    this.length = parts.history.length;
    this.base = parts.base;
    this.shared = parts.shared;
    this.offset = { ...parts.state };
    this.origin = parts.origin;
    this.pieces = parts.pieces;
    this.arrays = parts.arrays;
    this.state = parts.state;
    this.extended = parts.extended && new WeakRef(parts.extended);
    const from = parts.extended ? parts.extended.length : this.shared;
    if (parts.extended) this.offset = parts.extended.offset;
    this.arrays.owner = this;
    scanStructure(this.history, from, this.length, this.arrays, this.state, this.offset);
  }

  /** An index built from nothing: every message read (a cold run). */
  static fresh(history: readonly Message[]): HistoryIndex {
    return new HistoryIndex({ history, shared: 0, arrays: new StructureArrays(), state: { rounds: 0, systems: 0, complete: true } });
  }

  /**
   * The index of `history`, which is `before` with messages appended: only
   * those are read. The first history to extend `before` takes over its
   * arrays and totals; another one extending it too (a fork) reads what it
   * shares with `before` from `before`'s index, up to its last round boundary.
   */
  static appended(history: readonly Message[], before: HistoryIndex): HistoryIndex {
    if (before.arrays.owner !== before) return HistoryIndex.derived(history, before, [{ from: 0, to: before.length }]);
    return new HistoryIndex({
      history,
      base: before.base,
      shared: before.shared,
      origin: before.origin,
      pieces: before.pieces,
      arrays: before.arrays,
      state: { ...before.state },
      extended: before,
    });
  }

  /**
   * The index of a history a processor made from `origin`: `pieces` in order
   * (ranges of origin's positions, new messages). The leading range it shares
   * with origin, down to a round boundary, is read from origin.
   */
  static derived(history: readonly Message[], origin: HistoryIndex, pieces: readonly HistoryPiece[]): HistoryIndex {
    const first = pieces[0];
    const prefix = first !== undefined && "from" in first && first.from === 0 ? first.to : 0;
    const shared = origin.boundaryAtOrBefore(prefix);
    const own = shared === 0 ? pieces : [...(prefix > shared ? [{ from: shared, to: prefix }] : []), ...pieces.slice(1)];
    const state: ScanState = { rounds: origin.roundsBefore(shared), systems: origin.systemsBefore(shared), complete: true };
    return new HistoryIndex({ history, base: shared > 0 ? origin : undefined, shared, origin, pieces: own, arrays: new StructureArrays(), state });
  }

  get rounds(): number {
    return this.state.rounds;
  }

  /** False while the last round waits for its final answer (E-R2). */
  get lastRoundComplete(): boolean {
    return this.state.complete;
  }

  get systemCount(): number {
    return this.state.systems;
  }

  /** Position of round `round`'s first message. */
  roundStart(round: number): number {
    return round < this.offset.rounds ? this.base!.roundStart(round) : this.arrays.roundStarts[round - this.offset.rounds];
  }

  /** Position of round `round`'s final answer, -1 while it has none. */
  finalOf(round: number): number {
    if (round < this.offset.rounds) return this.base!.finalOf(round);
    const final = this.arrays.finals[round - this.offset.rounds];
    // A history appended to this one may have filled it in past this one's end.
    return final >= this.length ? -1 : final;
  }

  /** Position of the `ordinal`-th system message. */
  systemAt(ordinal: number): number {
    return ordinal < this.offset.systems ? this.base!.systemAt(ordinal) : this.arrays.systems[ordinal - this.offset.systems];
  }

  /** Where the newest `rounds` rounds begin: 0 when the history has no more than that. */
  startOfLastRounds(rounds: number): number {
    return this.state.rounds > rounds ? this.roundStart(this.state.rounds - rounds) : 0;
  }

  /** Positions of the system messages before `position`, in order. */
  systemPositionsBefore(position: number): number[] {
    const count = this.systemsBefore(position);
    const positions = new Array<number>(count);
    for (let ordinal = 0; ordinal < count; ordinal += 1) positions[ordinal] = this.systemAt(ordinal);
    return positions;
  }

  /** How many rounds start before `position`. */
  roundsBefore(position: number): number {
    if (this.base && position <= this.shared) return this.base.roundsBefore(position);
    return this.offset.rounds + countBelow(this.arrays.roundStarts, this.state.rounds - this.offset.rounds, position);
  }

  /** How many system messages stand before `position`. */
  systemsBefore(position: number): number {
    if (this.base && position <= this.shared) return this.base.systemsBefore(position);
    return this.offset.systems + countBelow(this.arrays.systems, this.state.systems - this.offset.systems, position);
  }

  /** `position` if a round boundary (every round before it complete), else the start of the round it falls in. */
  boundaryAtOrBefore(position: number): number {
    const round = this.roundsBefore(position) - 1;
    if (round < 0) return position;
    const final = this.finalOf(round);
    return final !== -1 && final < position ? position : this.roundStart(round);
  }

  /** Tokens of the messages before `position` (no reply priming). */
  tokensBefore(counter: TiktokenCounter, position: number): number {
    if (this.base && position <= this.shared) return this.base.tokensBefore(counter, position);
    const before = this.base ? this.base.tokensBefore(counter, this.shared) : 0;
    return before + this.sumsFor(counter).values[position - this.shared];
  }

  /** The history's tokens as `countMessages` counts them (E-T1), from running totals. */
  tokens(counter: TiktokenCounter): number {
    return this.length === 0 ? 0 : TOKENS_TO_PRIME_REPLY + this.tokensBefore(counter, this.length);
  }

  /** One message's tokens, from running totals. */
  tokensAt(counter: TiktokenCounter, position: number): number {
    return this.tokensBefore(counter, position + 1) - this.tokensBefore(counter, position);
  }

  /**
   * The running totals of this index's own positions for a counter. Those
   * of the history it extends are extended; only a cold start counts every
   * message into the counter's cache (E-T6); warm counts of new messages stay
   * out of it, so a run never grows that process-wide WeakMap, whose rehash
   * after a collection costs milliseconds.
   */
  private sumsFor(counter: TiktokenCounter): TokenSums {
    const known = this.sums.get(counter.key);
    if (known) return known;
    const before = this.extended?.deref();
    let sums: TokenSums;
    let done = 0;
    if (before) {
      const previous = before.sumsFor(counter);
      done = before.length - before.shared;
      if (previous.owner !== before) countCopied(done + 1);
      sums = previous.owner === before ? previous : { values: previous.values.slice(0, done + 1), owner: this };
    } else {
      sums = { values: [0], owner: this };
    }
    sums.owner = this;
    this.fillSums(counter, sums.values, done, before !== undefined);
    this.sums.set(counter.key, sums);
    return sums;
  }

  /** Fills `values` past the first `done` own positions: from the origin's totals for its ranges, by counting for the rest. */
  private fillSums(counter: TiktokenCounter, values: number[], done: number, warm: boolean): void {
    const own = this.length - this.shared;
    let ordinal = 0;
    for (const piece of this.pieces ?? []) {
      if (ordinal >= own) break;
      const size = "message" in piece ? 1 : piece.to - piece.from;
      if (ordinal + size > done) {
        if ("message" in piece) values[ordinal + 1] = values[ordinal] + counter.countWritten(piece.message);
        else
          for (let at = Math.max(piece.from, piece.from + done - ordinal); at < piece.to; at += 1)
            values[at - piece.from + ordinal + 1] = values[at - piece.from + ordinal] + this.origin!.tokensAt(counter, at);
      }
      ordinal += size;
    }
    // Past the pieces: appended messages (counted warm), or every message of a cold index.
    const cold = !warm && this.pieces === undefined;
    for (let at = Math.max(ordinal, done); at < own; at += 1) {
      const message = this.history[this.shared + at];
      values[at + 1] = values[at] + (cold ? counter.countMessage(message) : counter.countMessageUncached(message));
    }
  }
}
