// The model catalogue: windows, output limits, tokenizers and prices of common
// models, with user entries over the built-in ones. Isomorphic data and pure
// functions: the page, the Web Worker and the server all read it.
export { BUILT_IN_MODELS, CATALOGUE_TAKEN_AT, FALLBACK_MODEL } from "./catalogue";
export { findModel, mergeCatalogue, normalizeModelName } from "./lookup";
export { costOfCall, type BilledTokens, type CallCost } from "./cost";
export type { MediaRule, ModelEntry, ModelMatch, ModelPrices, ModelProvider, ModelTokenizer } from "./types";
export { customEntry, modelEntryInputSchema, modelIdSchema, readCustomEntry, type ModelEntryInput } from "./schema";
