import { normalizeModelName } from "./lookup";

/** OpenAI's reasoning models: the o-series and GPT-5 (snapshots and variants included). */
const REASONING_MODEL = /^(?:o\d(?:$|[-.])|gpt-5(?:$|[-.]))/;

/**
 * Whether a Chat Completions request for `model` must carry its reply limit
 * as `max_completion_tokens`: OpenAI's reasoning models refuse `max_tokens`
 * (400 `unsupported_parameter`); other models and OpenAI-compatible servers
 * take `max_tokens`.
 */
export function takesMaxCompletionTokens(model: string): boolean {
  return REASONING_MODEL.test(normalizeModelName(model));
}
