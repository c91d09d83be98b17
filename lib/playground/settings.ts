// The light entry: this module runs on the page's main thread, which must not load the tokenizer (I2).
import {
  defaultPipelineSpec,
  encodingForModel,
  makeConfig,
  MODE_PRESETS,
  type AutomationMode,
  type ContextConfig,
  type EncodingName,
  type ProcessorSpec,
} from "@/lib/context/light";
import type { PipelineDependencies } from "@/lib/context";

/** Every engine setting the playground exposes; serialisable, so it crosses to the Web Worker and into URLs. */
export interface PlaygroundSettings {
  mode: AutomationMode;
  historyRounds: number;
  /** `null` disables summarisation. */
  summaryThreshold: number | null;
  offloadThreshold: number | null;
  /** Characters a message may hold before MessageOffloader replaces it. */
  maxMessageSize: number;
  /** Characters a tool result may hold before ToolResultOffloader truncates it. */
  maxToolResultSize: number;
  /** Hard token budget for the history. */
  tokenBudget: number;
  contextWindow: number;
  maxOutputTokens: number;
  model: string;
  /** Explicit encoding; when absent the model decides. */
  encoding?: EncodingName;
  processors: ProcessorSpec[];
}

export const DEFAULT_MODEL = "gpt-4o";

/** The settings of a mode preset; thresholds from ENGINE.md's table, budget arithmetic from seed 003. */
export function settingsForMode(mode: AutomationMode, base?: Partial<PlaygroundSettings>): PlaygroundSettings {
  const preset = MODE_PRESETS[mode];
  return {
    maxMessageSize: 10_000,
    maxToolResultSize: 5_000,
    tokenBudget: 100_000,
    contextWindow: 128_000,
    maxOutputTokens: 4_096,
    model: DEFAULT_MODEL,
    processors: defaultPipelineSpec(),
    ...base,
    mode,
    historyRounds: preset.historyRounds,
    summaryThreshold: preset.summaryThreshold,
    offloadThreshold: preset.offloadThreshold,
  };
}

export const DEFAULT_SETTINGS: PlaygroundSettings = settingsForMode("copilot");

/** The encoding the settings count with. */
export function settingsEncoding(settings: PlaygroundSettings): EncodingName {
  return settings.encoding ?? encodingForModel(settings.model);
}

/** The engine config and pipeline dependencies the settings stand for. */
export function toEngine(settings: PlaygroundSettings): { config: ContextConfig; dependencies: PipelineDependencies } {
  const encoding = settingsEncoding(settings);
  const config = makeConfig(settings.mode, {
    historyRounds: settings.historyRounds,
    summaryThreshold: settings.summaryThreshold,
    offloadThreshold: settings.offloadThreshold,
    extra: {
      token_budget: settings.tokenBudget,
      token_encoding: encoding,
      context_window: settings.contextWindow,
      max_output_tokens: settings.maxOutputTokens,
    },
  });
  return {
    config,
    dependencies: { maxMessageSize: settings.maxMessageSize, maxToolResultSize: settings.maxToolResultSize, maxTokens: settings.tokenBudget, encoding },
  };
}
