// The model catalogue: windows, output limits, tokenizers and prices of common
// models, with user entries over the built-in ones. Isomorphic data and pure
// functions: the page, the Web Worker and the server all read it.
export { BUILT_IN_MODELS, CATALOGUE_TAKEN_AT, FALLBACK_MODEL } from "./catalogue";
export { findModel, mergeCatalogue, normalizeModelName } from "./lookup";
export { costOfCall, costOfUsage, pricesOf, type BilledTokens, type CallCost, type UsageCost, type UsageTokens } from "./cost";
export { cachingOf, providerCaching, anthropicCaching, openaiCaching, geminiCaching, CACHING_CHECKED_AT, SOURCES } from "./caching";
export type { FigureSource, MediaRule, ModelCaching, ModelEntry, ModelFigure, ModelMatch, ModelPrices, ModelProvider, ModelTokenizer } from "./types";
export { customEntry, modelEntryInputSchema, modelIdSchema, pricesSchema, readCustomEntry, type ModelEntryInput } from "./schema";
export { takesMaxCompletionTokens } from "./output-limit";
