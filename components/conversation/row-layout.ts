import { findToolChains, roundOfEachMessage, type Message } from "@/lib/context/light";

/** Where a message sits in its conversation's structure, for drawing. */
export interface RowLayout {
  /** Round number, 0-based; -1 for system messages. */
  round: number;
  /** True for the first message of its round (the view prints the round's header above it). */
  roundStart: boolean;
  /** Tool chain hue 1..6 when the message belongs to a tool chain. */
  chain?: number;
  /** True for the chain's first message. */
  chainStart?: boolean;
  /** Calls in the chain (on its first message). */
  chainCalls?: number;
}

export const CHAIN_HUES = 6;

/** Rounds and tool chains of every message (E-R1, E-R3), computed once per list. */
export function layoutRows(messages: readonly Message[]): RowLayout[] {
  const rounds = roundOfEachMessage(messages);
  const rows: RowLayout[] = rounds.map((round) => ({ round, roundStart: false }));
  let previous = -2;
  rows.forEach((row) => {
    row.roundStart = row.round >= 0 && row.round !== previous;
    if (row.round >= 0) previous = row.round;
  });
  findToolChains(messages).forEach((chain, order) => {
    const hue = (order % CHAIN_HUES) + 1;
    let calls = 0;
    for (let index = chain.start; index < chain.end; index += 1) {
      rows[index].chain = hue;
      calls += messages[index].tool_calls?.length ?? 0;
    }
    rows[chain.start].chainStart = true;
    rows[chain.start].chainCalls = calls;
  });
  return rows;
}
