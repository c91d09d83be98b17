// The reference the engine's counts must equal (E-T5): js-tiktoken, special tokens as plain text.
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import o200k from "js-tiktoken/ranks/o200k_base";
import type { EncodingName } from "../tokens/encodings";

export const REFERENCE_RANKS = { cl100k_base: cl100k, o200k_base: o200k } as const;

const encoders = new Map<EncodingName, Tiktoken>();

function reference(encoding: EncodingName): Tiktoken {
  let encoder = encoders.get(encoding);
  if (!encoder) {
    encoder = new Tiktoken(REFERENCE_RANKS[encoding]);
    encoders.set(encoding, encoder);
  }
  return encoder;
}

/** js-tiktoken's token ids for `text`, with no special tokens allowed or disallowed. */
export function referenceEncode(encoding: EncodingName, text: string): number[] {
  return reference(encoding).encode(text, [], []);
}
