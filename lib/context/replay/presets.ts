// Named policies (E-RP10): the strategies other agents use, and the modes' defaults, as
// RequestPolicy values. Tokenizer-free: the page's main thread lists them.
import { MODE_PRESETS, type AutomationMode } from "../config";
import { deepFreeze } from "../freeze";
import { DEFAULT_PROCESSOR_ORDER, PROCESSOR_KINDS, STRATEGY_DEFAULTS, type ProcessorKind, type ProcessorSpec, type ProcessorTuning } from "../pipeline-spec";
import type { RequestPolicy } from "../request/policy";
import type { PolicyModel, PolicyPreset, PresetId } from "./types";

/** The model the presets are written for; `presetPolicy` rebases them onto another. */
export const PRESET_MODEL: Readonly<PolicyModel> = Object.freeze({ model: "gpt-4o", encoding: "o200k_base", contextWindow: 128_000, maxOutputTokens: 4_096 });

/** Processor entries in the engine's full order, those listed enabled. */
function processors(enabled: readonly ProcessorKind[]): ProcessorSpec[] {
  return PROCESSOR_KINDS.filter((kind) => kind !== "tool_result_offloader").map((kind) => ({ kind, enabled: enabled.includes(kind) }));
}

function policy(mode: AutomationMode, enabled: readonly ProcessorKind[], tuning?: ProcessorTuning): RequestPolicy {
  const rounds = MODE_PRESETS[mode];
  return {
    mode,
    historyRounds: rounds.historyRounds,
    summaryThreshold: rounds.summaryThreshold,
    offloadThreshold: rounds.offloadThreshold,
    maxMessageSize: 10_000,
    maxToolResultSize: 5_000,
    processors: processors(enabled),
    ...PRESET_MODEL,
    tokenBudget: null,
    reloadTool: true,
    retrievedMemories: 3,
    ...(tuning ? { tuning } : {}),
  };
}

const MODE_PROCESSORS = DEFAULT_PROCESSOR_ORDER.filter((kind) => kind !== "tool_result_offloader");

/** Presets are values shared by every caller: frozen through, so a change is a copy (E-M1). */
function preset(id: PresetId, label: string, description: string, value: RequestPolicy): PolicyPreset {
  return deepFreeze({ id, label, description, policy: value });
}

/**
 * The named policies (E-RP10): raw (nothing), the strategies of other agents, a
 * budget alone, and the three modes with the default pipeline.
 * @example presetPolicy("observation_masking", { model: "gpt-4.1", encoding: "o200k_base", contextWindow: 1_047_576, maxOutputTokens: 32_768 })
 */
export const PRESETS: Readonly<Record<PresetId, PolicyPreset>> = Object.freeze({
  raw: preset("raw", "Raw", "Sends the whole history every time: no processor runs.", policy("pilot", [])),
  observation_masking: preset(
    "observation_masking",
    "Observation masking",
    "Keeps the newest tool results and replaces older ones with a short placeholder.",
    policy("pilot", ["observation_masking"], { observation_masking: { ...STRATEGY_DEFAULTS.observation_masking } }),
  ),
  clear_tool_uses: preset(
    "clear_tool_uses",
    "Tool-result clearing",
    "Past a token trigger, clears older tool results and keeps the newest tool uses, as Anthropic's context editing does.",
    policy("pilot", ["clear_tool_uses"], { clear_tool_uses: { ...STRATEGY_DEFAULTS.clear_tool_uses, excludeTools: [] } }),
  ),
  auto_compact: preset(
    "auto_compact",
    "Auto-compaction",
    "When a request passes a share of the window, summarises everything before the recent rounds, as Claude Code does.",
    policy("pilot", ["auto_compact"], { auto_compact: { ...STRATEGY_DEFAULTS.auto_compact } }),
  ),
  budget_only: preset(
    "budget_only",
    "Budget only",
    "Drops the oldest whole rounds only when the request would not fit the window.",
    policy("pilot", ["token_budget"]),
  ),
  pilot: preset("pilot", "Pilot", "The pilot mode's defaults: a long window of rounds, nothing summarised or offloaded.", policy("pilot", MODE_PROCESSORS)),
  copilot: preset(
    "copilot",
    "Copilot",
    "The copilot mode's defaults: offload, compress tool chains, 20 rounds, summarise, budget.",
    policy("copilot", MODE_PROCESSORS),
  ),
  navigator: preset(
    "navigator",
    "Navigator",
    "The navigator mode's defaults: the same pipeline, tighter: 10 rounds, summaries from 5 messages.",
    policy("navigator", MODE_PROCESSORS),
  ),
});

/** The presets' ids, in the order a list shows them. */
export const PRESET_IDS: readonly PresetId[] = Object.freeze(Object.keys(PRESETS) as PresetId[]);

/** A preset's policy for a model: the preset with the model's name, encoding, window and reply reserve. */
export function presetPolicy(id: PresetId, model: PolicyModel = PRESET_MODEL): RequestPolicy {
  return withModel(PRESETS[id].policy, model);
}

/** A policy moved onto another model, everything else kept. */
export function withModel(policy: RequestPolicy, model: PolicyModel): RequestPolicy {
  return { ...policy, model: model.model, encoding: model.encoding, contextWindow: model.contextWindow, maxOutputTokens: model.maxOutputTokens };
}

/** The raw baseline of a policy (E-RP9): the same model and limits, no processor. */
export function rawPolicy(policy: RequestPolicy): RequestPolicy {
  const { tuning: _tuning, ...rest } = policy;
  return { ...rest, processors: policy.processors.map((entry) => ({ ...entry, enabled: false })) };
}
