// One settings module: the schema of a conversation's stored settings (types
// inferred from it), the defaults per mode, the normalisation of stored rows,
// the merge of changes, and the resolution against the model catalogue into
// the engine's request policy. Isomorphic and tokenizer-free: the page's main
// thread, the Web Worker and the server all use it.
export {
  settingsSchema,
  settingsChangesSchema,
  processorEntrySchema,
  processorTuningSchema,
  requestPolicySchema,
  type Settings,
  type SettingsChanges,
  type SettingsTuning,
  type ProcessorEntry,
} from "./schema";
export { DEFAULT_MODEL, DEFAULT_SETTINGS, PRESET_FIELDS, settingsForMode, type PresetField } from "./defaults";
export { normalizeSettings, type NormalizedSettings, type SettingsRepair } from "./normalize";
export { mergeSettings, settingsWithModel } from "./merge";
export { completeProcessors, isRecommendedOrder, moveProcessor, recommendedOrder, toggleProcessor } from "./processors";
export { DEFAULT_RESERVE_CAP, defaultReserve, resolveSettings, resolveStoredSettings, type ResolvedSettings, type ValueSource } from "./resolve";
