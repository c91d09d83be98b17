import "server-only";
import {
  CONVERSATION_SUMMARY_PREFIX,
  offloadMarker,
  sharedCounter,
  splitRounds,
  summarizeConversation,
  TOKENS_TO_PRIME_REPLY,
  type Message,
  type ToolDefinition,
} from "@/lib/context";
import {
  getArtifactOutlinesByBranchId,
  getCheckpointOutlinesByBranchId,
  getHistoryByBranchId,
  type ArtifactOutline,
  type CheckpointOutline,
  type Database,
  type JsonObject,
  type MessageRecord,
  type SummaryRecord,
} from "@/lib/db";
import { settingsEncoding } from "@/lib/playground/settings";
import { rankRelevant, type RetrievalHit } from "./retrieval";
import type { MemorySettings } from "./settings";
import { coveredUntil, latestSummary, loadBranchState, type BranchState } from "./state";
import { positionsLabel } from "./text";

/** One part of an assembled request, as the inspector shows it. */
export interface PromptSection {
  kind: "system" | "tools" | "checkpoint" | "retrieved" | "recent" | "current";
  /** E.g. "Checkpoint v3 (summary of messages 0–41)", "Retrieved: summary 2 (score 4.12)". */
  label: string;
  /** What the section adds to the request's messages (tools: none, see `tools`). */
  messages: Message[];
  /** Its tokens; the request's 3 reply-priming tokens (T1) count in the last section that has messages, so sections add up to the total. */
  tokens: number;
  source?: { summaryId?: string; checkpointId?: string; artifactId?: string; positions?: [number, number]; score?: number };
}

/** Which optional parts an attempt keeps: stage 3 shrinks along these, in order. */
export interface PromptShape {
  retrieved: boolean;
  /** Most recent raw rounds sent raw (seed 002: at most 2); older raw rounds are folded into the checkpoint section. */
  recentRounds: number;
}

/**
 * What a prompt is built from: the branch state with its whole raw part,
 * plus what the other sections read. Everything but the raw part is small
 * (no history before it, no artifact content, no checkpoint payloads),
 * except the chain and the artifact outlines retrieval ranks.
 */
export interface PromptState extends BranchState {
  /** The visible chain, oldest first; its last link is `latest`. */
  chain: SummaryRecord[];
  /** The checkpoint that saved the latest summary (the latest such), if one is visible. */
  checkpoint: Pick<CheckpointOutline, "id" | "version"> | null;
  /** Visible artifacts of the loaded history, without content. */
  artifacts: ArtifactOutline[];
  /** The history's system messages, in order. */
  system: Message[];
  /** The history's last user message ("" when none), retrieval's query when there is no current turn. */
  lastUser: string;
  /** Metadata of the messages retrieved artifacts stand for, by position (see `loadRetrievalMetadata`). */
  metadata: ReadonlyMap<number, JsonObject | null>;
}

/**
 * Loads what a prompt needs: the chain first (its last link is the latest
 * summary), then the raw messages after it, and the rest cut to that history.
 */
export async function loadPromptState(db: Database, branchId: string, overrides: Partial<MemorySettings> | undefined, options: { lastUser: boolean }): Promise<PromptState> {
  const state = await loadBranchState(db, branchId, overrides, { window: "raw", chain: true });
  const { scope, length } = state;
  const chain = state.chain ?? [];
  const latest = latestSummary(state);
  const checkpoint = latest ? ((await getCheckpointOutlinesByBranchId(db, scope, { inherited: true, summaryId: latest.id })).at(-1) ?? null) : null;
  const artifacts = (await getArtifactOutlinesByBranchId(db, scope, { inherited: true })).filter((artifact) => artifact.position < length);
  const system = (await getHistoryByBranchId(db, scope, { roles: ["system"], toPosition: length })).map((record) => record.message);
  const [last] = options.lastUser ? await getHistoryByBranchId(db, scope, { roles: ["user"], toPosition: length, last: 1 }) : [];
  return { ...state, chain, checkpoint, artifacts, system, lastUser: last?.message.content ?? "", metadata: new Map() };
}

/** The raw part of a prompt state: every message after the latest summary. */
export function rawOf(state: PromptState): MessageRecord[] {
  const from = coveredUntil(state);
  return state.recent.filter((record) => record.position >= from);
}

/** Everything a prompt is built from. */
export interface PromptInput {
  state: PromptState;
  settings: MemorySettings;
  tools: ToolDefinition[];
  current: Message | null;
  /** What retrieval searches for; empty retrieves nothing. */
  query: string;
  /** Retrieval's results for this input by `recentRounds` of the shapes that retrieve, ranked once (see `loadRetrievalMetadata`). */
  retrieved?: ReadonlyMap<number, RetrievalHit[]>;
}

/** One assembled attempt. */
export interface BuiltPrompt {
  sections: PromptSection[];
  messages: Message[];
  tokens: { system: number; tools: number; history: number; total: number };
}

/** Most retrieved sections a prompt holds (seed 002: up to the top 3). */
export const RETRIEVED_SECTIONS = 3;

/** The history's system messages, in order: static, sent whole with every request. */
export function systemMessagesOf(state: PromptState): Message[] {
  return state.system;
}

/** The memories a shape retrieves: BM25 over the chain and the artifacts, leaving out the included summary and artifacts already in the recent part. */
function retrievalOf(input: PromptInput, shape: PromptShape): RetrievalHit[] {
  const { state } = input;
  if (!shape.retrieved || input.query.trim().length === 0) return [];
  const ranked = input.retrieved?.get(shape.recentRounds);
  if (ranked) return ranked;
  const summary = latestSummary(state);
  const { recent } = splitRaw(state, shape.recentRounds);
  const exclude = [...(summary ? [summary.id] : []), ...artifactsAmong(state, recent)];
  return rankRelevant(state.chain, state.artifacts, input.query, { limit: RETRIEVED_SECTIONS, exclude });
}

/**
 * The input with retrieval ranked for each of `shapes` and the metadata of
 * the messages its artifacts stand for (their reload handles): one query
 * for the few messages retrieval points at, instead of the history.
 */
export async function loadRetrievalMetadata(db: Database, input: PromptInput, shapes: readonly PromptShape[]): Promise<PromptInput> {
  const { state } = input;
  const retrieved = new Map(input.retrieved);
  const positions = new Set<number>();
  for (const shape of shapes) {
    if (!shape.retrieved || retrieved.has(shape.recentRounds)) continue;
    const hits = retrievalOf(input, shape);
    retrieved.set(shape.recentRounds, hits);
    for (const hit of hits) if (hit.kind === "artifact" && hit.positions && !state.metadata.has(hit.positions[0])) positions.add(hit.positions[0]);
  }
  if (positions.size === 0) return { ...input, retrieved };
  const records = await getHistoryByBranchId(db, state.scope, { positions: [...positions], toPosition: state.length });
  const metadata = new Map(state.metadata);
  for (const record of records) metadata.set(record.position, record.metadata);
  return { ...input, retrieved, state: { ...state, metadata } };
}

/**
 * Assembles one request from a branch's state (seed 002 stage 1): static
 * system messages and tools first so provider prompt caches hold, then the
 * latest summary (as its checkpoint), retrieved memories, the raw messages
 * after the summary, and the current turn. Pure and deterministic.
 */
export function buildPrompt(input: PromptInput, shape: PromptShape): BuiltPrompt {
  const { state, settings, tools, current } = input;
  const counter = sharedCounter(settingsEncoding(settings));
  const sections: PromptSection[] = [];
  const add = (section: Omit<PromptSection, "tokens">) => sections.push({ ...section, tokens: section.messages.reduce((sum, message) => sum + counter.countMessage(message), 0) });

  const system = systemMessagesOf(state);
  if (system.length > 0) add({ kind: "system", label: system.length === 1 ? "System prompt" : `System prompt (${system.length} messages)`, messages: system });
  if (tools.length > 0) {
    sections.push({ kind: "tools", label: `Tools: ${tools.length} definition${tools.length === 1 ? "" : "s"}`, messages: [], tokens: counter.countTools(tools) });
  }
  const summary = latestSummary(state);
  const { gap, recent } = splitRaw(state, shape.recentRounds);
  if (summary || gap.length > 0) add(checkpointSection(state, summary ?? undefined, gap));
  for (const hit of retrievalOf(input, shape)) add(retrievedSection(state, hit));
  if (recent.length > 0) {
    const rounds = splitRounds(recent.map((record) => record.message)).length;
    const positions: [number, number] = [recent[0].position, recent[recent.length - 1].position + 1];
    add({
      kind: "recent",
      label: `Recent: ${rounds} round${rounds === 1 ? "" : "s"} (messages ${positionsLabel(...positions)})`,
      messages: recent.map((record) => record.message),
      source: { positions },
    });
  }
  if (current) add({ kind: "current", label: "Current turn", messages: [current] });

  const last = sections.findLast((section) => section.messages.length > 0);
  if (last) last.tokens += TOKENS_TO_PRIME_REPLY;
  const messages = sections.flatMap((section) => section.messages);
  const systemTokens = system.reduce((sum, message) => sum + counter.countMessage(message), 0);
  const toolTokens = counter.countTools(tools);
  const total = sections.reduce((sum, section) => sum + section.tokens, 0);
  return { sections, messages, tokens: { system: systemTokens, tools: toolTokens, history: total - systemTokens - toolTokens, total } };
}

/**
 * The raw non-system messages after the latest summary, split into the last
 * `rounds` rounds (sent raw) and the older ones (the gap, summarised into the
 * checkpoint section until a compaction persists them), so no turn is ever
 * left out of the request.
 */
function splitRaw(state: PromptState, rounds: number): { gap: MessageRecord[]; recent: MessageRecord[] } {
  const raw = rawOf(state).filter((record) => record.message.role !== "system");
  const split = splitRounds(raw.map((record) => record.message));
  if (split.length <= rounds) return { gap: [], recent: raw };
  const cut = rounds === 0 ? raw.length : split[split.length - rounds].start;
  return { gap: raw.slice(0, cut), recent: raw.slice(cut) };
}

/** Artifacts whose tool messages the prompt already carries as pointers. */
function artifactsAmong(state: PromptState, records: MessageRecord[]): string[] {
  if (records.length === 0) return [];
  const from = records[0].position;
  return state.artifacts.filter((artifact) => artifact.position >= from).map((artifact) => artifact.id);
}

/**
 * The latest summary (as its checkpoint) and, when raw rounds older than the
 * recent ones are not in it yet, their deterministic extractive summary: the
 * prompt keeps at most the recent raw rounds without dropping the ones between.
 */
function checkpointSection(state: PromptState, summary: SummaryRecord | undefined, gap: MessageRecord[]): Omit<PromptSection, "tokens"> {
  const parts: string[] = [];
  const labels: string[] = [];
  const inherited = summary && summary.branchId !== state.branch.id ? ", inherited" : "";
  // The state's checkpoint is the latest summary's, and `summary` is always that one.
  const checkpoint = summary ? (state.checkpoint ?? undefined) : undefined;
  let from = gap[0]?.position ?? 0;
  let to = gap.length > 0 ? gap[gap.length - 1].position + 1 : 0;
  if (summary) {
    from = state.chain[0].fromPosition;
    to = Math.max(to, summary.toPosition);
    const range = positionsLabel(state.chain[0].fromPosition, summary.toPosition);
    labels.push(checkpoint ? `Checkpoint v${checkpoint.version} (summary of messages ${range}${inherited})` : `Summary ${state.chain.length} (messages ${range}${inherited})`);
    parts.push(`Messages ${range} of this conversation, summarized:\n${summary.text}`);
  }
  if (gap.length > 0) {
    const range = positionsLabel(gap[0].position, gap[gap.length - 1].position + 1);
    labels.push(summary ? `messages ${range} summarized now` : `Messages ${range} summarized now (no checkpoint yet)`);
    parts.push(`Then messages ${range}, summarized:\n${summarizeConversation(gap.map((record) => record.message))}`);
  }
  const positions: [number, number] = [from, to];
  return {
    kind: "checkpoint",
    label: labels.join(" + "),
    messages: [{ role: "system", content: `${CONVERSATION_SUMMARY_PREFIX} ${parts.join("\n\n")}` }],
    source: { ...(summary ? { summaryId: summary.id } : {}), ...(checkpoint ? { checkpointId: checkpoint.id } : {}), positions },
  };
}

function retrievedSection(state: PromptState, hit: RetrievalHit): Omit<PromptSection, "tokens"> {
  const score = Math.round(hit.score * 100) / 100;
  const positions = hit.positions ?? [0, 0];
  if (hit.kind === "summary") {
    const number = state.chain.findIndex((summary) => summary.id === hit.id) + 1;
    const range = positionsLabel(...positions);
    return {
      kind: "retrieved",
      label: `Retrieved: summary ${number} (score ${score.toFixed(2)})`,
      messages: [{ role: "system", content: `[Retrieved summary of messages ${range}]\n${hit.text}` }],
      source: { summaryId: hit.id, positions, score },
    };
  }
  const artifact = state.artifacts.find((candidate) => candidate.id === hit.id);
  const tool = artifact?.toolName ?? "tool";
  // The tool message's metadata names the handle its full content can be reloaded by.
  const metadata = state.metadata.get(positions[0]);
  const handle = metadata?.artifactId === hit.id && typeof metadata.handle === "string" ? metadata.handle : undefined;
  const reload = handle ? `; full result: ${offloadMarker(handle)}` : "";
  return {
    kind: "retrieved",
    label: `Retrieved: artifact of ${tool} at message ${positions[0]} (score ${score.toFixed(2)})`,
    messages: [{ role: "system", content: `[Retrieved ${tool} result from message ${positions[0]}${reload}]\n${hit.text}` }],
    source: { artifactId: hit.id, positions, score },
  };
}
