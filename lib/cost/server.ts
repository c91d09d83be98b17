import "server-only";
import type { Message, ToolDefinition } from "@/lib/context";
import { forwardedBody } from "@/lib/calls/describe";
import { protocolOfCall } from "@/lib/calls/protocol";
import {
  getBranchesByConversationId,
  getCheckpointOutlinesByBranchId,
  getConversationById,
  getConversationsByRecordKeyFamily,
  getExchangesByConversationId,
  getHistoryByBranchId,
  getSubagentsByConversationId,
  type ConversationRecord,
  type Database,
  type ExchangeRecord,
  type MessageRecord,
} from "@/lib/db";
import { callFactsOf, readReportedUsage, readRequest, type CallFacts } from "@/lib/formats";
import { loadCatalogue } from "@/lib/models/server";
import { priceSession } from "./session";
import type { ConversationCost, SessionCall } from "./types";

/** Subagents of subagents are followed this deep. */
const MAX_SUBAGENT_DEPTH = 4;
const EXCHANGE_PAGE = 500;
/** Claude Code writes local answers (an interrupted turn, a slash command) as from this model: no API call made them. */
const NOT_A_MODEL = "<synthetic>";

/** Whose calls these are: a subagent's, and whether they are listed or only share the provider's cache (P-S3). */
type Role = Pick<SessionCall, "subagent" | "listed">;

/** An answer message with where it is stored. */
interface Answer {
  record: MessageRecord;
  branchId: string;
  history: readonly MessageRecord[];
  facts: CallFacts | undefined;
}

/** An agent compaction saved on a branch (IM-11): from `position` on, `replacement` stood for the history before it. */
interface Compaction {
  position: number;
  replacement: Message[];
}

const timeOf = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : time;
};

async function allExchanges(db: Database, conversationId: string): Promise<ExchangeRecord[]> {
  const exchanges: ExchangeRecord[] = [];
  for (let offset = 0; ; offset += EXCHANGE_PAGE) {
    const page = await getExchangesByConversationId(db, conversationId, { limit: EXCHANGE_PAGE, offset });
    exchanges.push(...page);
    if (page.length < EXCHANGE_PAGE) return exchanges;
  }
}

async function compactionsOf(db: Database, branchId: string): Promise<Compaction[]> {
  const outlines = await getCheckpointOutlinesByBranchId(db, branchId, { inherited: true });
  return outlines
    .filter((outline) => outline.metadata?.reason === "agent-compaction")
    .map((outline) => ({
      position: outline.messageCount,
      replacement: Array.isArray(outline.metadata?.replacement) ? (outline.metadata.replacement as unknown as Message[]) : [],
    }))
    .sort((a, b) => a.position - b.position);
}

/** Every stored answer of the conversation, each once, with the branch it was read on. */
async function answersOf(db: Database, conversationId: string): Promise<{ answers: Answer[]; compactions: Map<string, Compaction[]> }> {
  const seen = new Set<string>();
  const answers: Answer[] = [];
  const compactions = new Map<string, Compaction[]>();
  for (const branch of await getBranchesByConversationId(db, conversationId)) {
    const history = await getHistoryByBranchId(db, branch.id);
    compactions.set(branch.id, await compactionsOf(db, branch.id));
    for (const record of history) {
      if (record.message.role !== "assistant" || seen.has(record.id)) continue;
      seen.add(record.id);
      answers.push({ record, branchId: branch.id, history, facts: callFactsOf(record.metadata) });
    }
  }
  return { answers, compactions };
}

/** CC10: a session log's request for the answer at `position`: the history before it, from the last compaction on. */
function historyRequest(history: readonly MessageRecord[], position: number, compactions: readonly Compaction[], previousPosition: number | null) {
  const compaction = compactions.filter((entry) => entry.position <= position).at(-1);
  const start = compaction?.position ?? 0;
  const messages = [...(compaction?.replacement ?? []), ...history.slice(start, position).map((record) => record.message)];
  return { messages, compacted: compaction !== undefined && previousPosition !== null && compaction.position > previousPosition };
}

/**
 * CC-10: one call per maximal run of answer messages with one response id (or
 * none): a Claude Code call written as several lines is one call; a response
 * id seen before is the same call again (a re-import's fork).
 */
function logCalls(answers: readonly Answer[], compactions: Map<string, Compaction[]>, conversation: ConversationRecord, role: Role): SessionCall[] {
  const calls: SessionCall[] = [];
  const responses = new Set<string>();
  let previousPosition: number | null = null;
  let previous: Answer | null = null;
  let reply: Message[] | null = null;
  for (const answer of answers) {
    const { record, facts } = answer;
    const responseId = facts?.responseId ?? null;
    const sameRun =
      previous !== null &&
      previous.branchId === answer.branchId &&
      previous.record.position === record.position - 1 &&
      (previous.facts?.responseId ?? null) === responseId;
    previous = answer;
    if (sameRun) {
      reply?.push(record.message);
      continue;
    }
    reply = null;
    if (responseId !== null && responses.has(responseId)) continue;
    if (responseId !== null) responses.add(responseId);
    if (facts?.model === NOT_A_MODEL) continue;
    const request = historyRequest(answer.history, record.position, compactions.get(answer.branchId) ?? [], previousPosition);
    previousPosition = record.position;
    const at = facts?.at ?? null;
    const started = timeOf(at);
    reply = [record.message];
    calls.push({
      conversationId: conversation.id,
      ...role,
      at,
      startedAt: started === null ? null : started - (facts?.latencyMs ?? 0),
      model: facts?.model ?? (typeof conversation.settings.model === "string" ? conversation.settings.model : null),
      usage: facts?.usage ?? null,
      responseId,
      exchangeId: null,
      branchId: answer.branchId,
      position: record.position,
      request: { messages: request.messages, tools: conversation.tools ?? [] },
      marked: false,
      reply,
      compacted: request.compacted,
    });
  }
  return calls;
}

/** CC10: a recorded call: the body as forwarded (marks included), its answer's usage, its time from the reply's facts. */
function exchangeCall(exchange: ExchangeRecord, reply: Answer | undefined, conversation: ConversationRecord, role: Role): SessionCall | null {
  const protocol = protocolOfCall(exchange.request, exchange.response);
  if (protocol === null || exchange.response === null || (exchange.status ?? 0) >= 400) return null;
  let read: { messages: Message[]; tools: ToolDefinition[] };
  try {
    const request = readRequest(protocol, forwardedBody(exchange));
    read = { messages: request.messages, tools: request.tools ?? [] };
  } catch {
    // A body no reader takes is priced from its usage alone, its prefix unknown.
    read = { messages: [], tools: [] };
  }
  const response = exchange.response as Record<string, unknown>;
  const usage = readReportedUsage(response.usage) ?? null;
  const at = reply?.facts?.at ?? exchange.createdAt;
  const started = timeOf(at);
  const latency = reply?.facts?.latencyMs ?? exchange.durationMs ?? 0;
  // As the calls view prices them (CA-5): the model asked for, else the one that answered.
  const asked = (exchange.request as Record<string, unknown> | null)?.model;
  const model = typeof asked === "string" ? asked : typeof response.model === "string" ? response.model : (reply?.facts?.model ?? null);
  return {
    conversationId: conversation.id,
    ...role,
    at,
    startedAt: started === null ? null : started - (reply?.facts?.at === undefined ? 0 : latency),
    model,
    usage,
    responseId: typeof response.id === "string" ? response.id : null,
    exchangeId: exchange.id,
    branchId: reply?.branchId ?? exchange.branchId,
    position: reply?.record.position ?? null,
    request: read,
    marked: true,
    reply: reply ? [reply.record.message] : [],
    compacted: false,
  };
}

/** One conversation's calls in order: its recorded exchanges, then the answers no exchange made (an imported log). */
async function callsOf(db: Database, conversation: ConversationRecord, role: Role): Promise<SessionCall[]> {
  const { answers, compactions } = await answersOf(db, conversation.id);
  const exchanges = await allExchanges(db, conversation.id);
  const byExchange = new Map<string, Answer>();
  for (const answer of answers) {
    const exchangeId = answer.record.metadata?.exchangeId;
    if (typeof exchangeId === "string" && !byExchange.has(exchangeId)) byExchange.set(exchangeId, answer);
  }
  const known = new Set(exchanges.map((exchange) => exchange.id));
  const recorded = exchanges.flatMap((exchange) => exchangeCall(exchange, byExchange.get(exchange.id), conversation, role) ?? []);
  const logged = logCalls(
    answers.filter((answer) => {
      const exchangeId = answer.record.metadata?.exchangeId;
      return typeof exchangeId !== "string" || !known.has(exchangeId);
    }),
    compactions,
    conversation,
    role,
  );
  return [...recorded, ...logged];
}

async function subagentsOf(db: Database, conversationId: string, depth: number): Promise<ConversationRecord[]> {
  if (depth >= MAX_SUBAGENT_DEPTH) return [];
  const children = await getSubagentsByConversationId(db, conversationId);
  const nested = await Promise.all(children.map((child) => subagentsOf(db, child.id, depth + 1)));
  return [...children, ...nested.flat()];
}

/**
 * CC-10: a conversation's calls with those of the other conversations
 * recorded under its agent key (P-S3 splits one agent's independent runs by
 * their opening turn), in time order: they share the provider's cache.
 */
async function chainOf(db: Database, conversation: ConversationRecord, subagent: boolean): Promise<SessionCall[]> {
  const own = await callsOf(db, conversation, { subagent, listed: true });
  if (conversation.recordKey === null) return own;
  const family = await getConversationsByRecordKeyFamily(db, conversation.recordKey.replace(/#[0-9a-f]{8}$/, ""));
  const others: SessionCall[] = [];
  for (const sibling of family) if (sibling.id !== conversation.id) others.push(...(await callsOf(db, sibling, { subagent, listed: false })));
  if (others.length === 0) return own;
  return [...own, ...others].sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0));
}

/** `GET /api/conversations/[id]/cost`: every API call of the conversation and its subagents, priced (CC-10–CC-12); stopped when `signal` aborts (CC-14). */
export async function getConversationCost(
  db: Database,
  conversationId: string,
  options: { subagents?: boolean; signal?: AbortSignal } = {},
): Promise<ConversationCost> {
  const conversation = await getConversationById(db, conversationId);
  const subagents = options.subagents === false ? [] : await subagentsOf(db, conversationId, 0);
  const chains = [await chainOf(db, conversation, false)];
  for (const subagent of subagents) chains.push(await chainOf(db, subagent, true));
  return priceSession(conversationId, chains, await loadCatalogue(db), options.signal);
}
