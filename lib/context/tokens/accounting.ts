// OpenAI cookbook constants (E-T1), in a module of their own so tokenizer-free code
// (the light entry, I2) can use them without reaching the BPE ranks.

/** Every message costs 3 tokens besides its texts. */
export const TOKENS_PER_MESSAGE = 3;
/** A name costs 1 more. */
export const TOKENS_PER_NAME = 1;
/** The reply is primed with 3. */
export const TOKENS_TO_PRIME_REPLY = 3;
