// Encoding names and the model table, apart from the BPE ranks: the page's main
// thread needs these, and must not download megabytes of ranks it never uses.

/** The tiktoken encodings the engine counts with. */
export type EncodingName = "cl100k_base" | "o200k_base";

export const ENCODINGS: readonly EncodingName[] = Object.freeze(["cl100k_base", "o200k_base"]);
export const DEFAULT_ENCODING: EncodingName = "cl100k_base";

/**
 * Model name to encoding (E-T4). Unknown and newer models count with o200k_base,
 * as tiktoken's own fallback does for the gpt-4o family onwards.
 */
export function encodingForModel(model: string): EncodingName {
  // A fine-tuned model (`ft:gpt-3.5-turbo-0125:org::id`) counts like its base model.
  const name = model
    .trim()
    .toLowerCase()
    .replace(/^(openai\/|azure\/)/, "")
    .replace(/^ft:/, "");
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o|gpt-oss)/.test(name)) return "o200k_base";
  // `gpt-35-turbo` is Azure's name for gpt-3.5-turbo.
  if (/^(gpt-4|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada-002)/.test(name)) return "cl100k_base";
  return "o200k_base";
}

/** True for an encoding the engine can count with. */
export function isEncodingName(value: unknown): value is EncodingName {
  return value === "cl100k_base" || value === "o200k_base";
}
