import "server-only";
import type { Database, Transaction } from "./client";
import { toConversationRecord } from "./conversation-record";
import type { ConversationOverview } from "./conversations";
import { FAILED_EXCHANGE } from "./exchanges";
import type { Prisma } from "./generated/sqlite/client";
import { dayTermOf, prefixUpperBound, termsOf } from "./library-terms";
import { executeIn, heldConnectionOf, insertRow, runQuery, runTransaction, valueTuples } from "./run";
import { PUBLISHED_ONLY } from "./staging";
import { DEFAULT_LIBRARY_QUERY, type LibraryOrder, type LibraryQuery, type LibrarySort, type LibrarySource } from "@/lib/library/query";

/** A library query; absent fields take their defaults (`lib/library/query.ts`). */
export type LibraryQueryOptions = Partial<LibraryQuery>;

/** A row of the library: the list's overview with the stored tokens and failed calls. */
export interface LibraryConversation extends ConversationOverview {
  tokens: number;
  failedCalls: number;
}

export interface LibraryPageResult {
  conversations: LibraryConversation[];
  /** How many conversations match, over all pages. */
  total: number;
}

/** The proxy's refusal of a call over the context budget (lib/proxy), as its stored error says it. */
const BUDGET_STOP = "context_budget_exceeded";

function sourceWhere(source: LibrarySource): Prisma.ConversationWhereInput {
  if (source === "import") return { source: { startsWith: "import:" } };
  if (source === "proxy") return { source: "proxy" };
  return { origin: { not: null } };
}

/** The last word of a search matches as a prefix once it has this many characters; shorter ones, and the words before it, match whole. */
export const MIN_PREFIX_LENGTH = 3;

/**
 * LB-1: one lookup of the term index per word, never a read of the messages. Only the word being
 * typed (the last) is a prefix, and only from three characters: a short prefix ("3", "re") is a
 * range over a large part of the index, which every keystroke would pay for.
 */
function termWhere(word: string, last: boolean): Prisma.SearchTermWhereInput {
  return last && Array.from(word).length >= MIN_PREFIX_LENGTH ? { term: { gte: word, lt: prefixUpperBound(word) } } : { term: word };
}

function libraryWhere(options: LibraryQueryOptions): Prisma.ConversationWhereInput {
  const words = termsOf(options.q ?? "");
  return {
    AND: [
      PUBLISHED_ONLY,
      ...words.map((word, index) => ({ searchTerms: { some: termWhere(word, index === words.length - 1) } })),
      ...(options.source ? [sourceWhere(options.source)] : []),
      ...(options.failed ? [{ exchanges: { some: FAILED_EXCHANGE } }] : []),
      ...(options.overBudget ? [{ exchanges: { some: { error: { contains: BUDGET_STOP } } } }] : []),
    ],
  };
}

function libraryOrder(sort: LibrarySort, order: LibraryOrder): Prisma.ConversationOrderByWithRelationInput[] {
  const first: Prisma.ConversationOrderByWithRelationInput =
    sort === "created"
      ? { createdAt: order }
      : sort === "title"
        ? { title: order }
        : sort === "messages"
          ? { library: { messageCount: order } }
          : sort === "tokens"
            ? { library: { tokens: order } }
            : { updatedAt: order };
  return [first, { id: order }];
}

/**
 * One page of the conversation library (LB-2): the conversations matching the
 * search and filters in the chosen order, and how many match in all: five
 * statements whatever the page size or the number of conversations (the
 * page, its entries, the total, its branch and failed-call counts).
 */
export async function getConversationPage(db: Database, options: LibraryQueryOptions = {}): Promise<LibraryPageResult> {
  const where = libraryWhere(options);
  return runQuery(db, async () => {
    const [rows, total] = await Promise.all([
      db.conversation.findMany({
        where,
        orderBy: libraryOrder(options.sort ?? DEFAULT_LIBRARY_QUERY.sort, options.order ?? DEFAULT_LIBRARY_QUERY.order),
        take: options.limit ?? DEFAULT_LIBRARY_QUERY.limit,
        skip: options.offset ?? 0,
        include: { library: true },
      }),
      db.conversation.count({ where }),
    ]);
    // Counted for this page's conversations only: a relation count in the page query aggregates every branch and call stored.
    const ids = rows.map((row) => row.id);
    const [branches, failed] =
      ids.length === 0
        ? [[], []]
        : await Promise.all([
            db.branch.groupBy({ by: ["conversationId"], where: { conversationId: { in: ids } }, _count: { _all: true } }),
            db.exchange.groupBy({ by: ["conversationId"], where: { conversationId: { in: ids }, ...FAILED_EXCHANGE }, _count: { _all: true } }),
          ]);
    const branchCounts = new Map(branches.map((group) => [group.conversationId, group._count._all]));
    const failedCounts = new Map(failed.map((group) => [group.conversationId, group._count._all]));
    const conversations = rows.map(({ library, ...row }) => ({
      ...toConversationRecord(row),
      messageCount: library?.messageCount ?? 0,
      branchCount: branchCounts.get(row.id) ?? 0,
      tokens: library?.tokens ?? 0,
      failedCalls: failedCounts.get(row.id) ?? 0,
    }));
    return { conversations, total };
  });
}

/** A conversation's columns the library's "about" words come from. */
export interface LibraryAbout {
  title: string;
  recordKey: string | null;
  settings: string;
  origin: string | null;
  createdAt: Date;
}

/** A message's stored columns the library's "said" words come from. */
export interface LibraryMessageColumns {
  content: string | null;
  toolCalls: string | null;
  name: string | null;
  metadata: string | null;
  tokens: number;
}

function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function stringField(value: unknown, key: string): string {
  const field = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof field === "string" ? field : "";
}

function aboutTerms(about: LibraryAbout): string[] {
  const text = [about.title, about.recordKey ?? "", stringField(parsed(about.settings), "model"), stringField(parsed(about.origin), "agent")].join(" ");
  return [...termsOf(text), dayTermOf(about.createdAt)];
}

function saidTerms(messages: readonly LibraryMessageColumns[], writtenAt: Date): string[] {
  const terms = new Set<string>([dayTermOf(writtenAt)]);
  for (const message of messages) {
    const calls = parsed(message.toolCalls);
    const callText = Array.isArray(calls) ? calls.map(callFunctionText).join(" ") : "";
    const text = `${message.content ?? ""} ${message.name ?? ""} ${callText} ${stringField(parsed(message.metadata), "model")}`;
    for (const term of termsOf(text)) terms.add(term);
  }
  return [...terms];
}

function callFunctionText(call: unknown): string {
  const fn = typeof call === "object" && call !== null ? (call as Record<string, unknown>).function : undefined;
  return `${stringField(fn, "name")} ${stringField(fn, "arguments")}`;
}

/** Rows per INSERT: three parameters a row stays far under either database's limit. */
const TERM_ROWS = 500;

async function insertTerms(tx: Transaction, conversationId: string, kind: "about" | "said", terms: readonly string[]): Promise<void> {
  for (let offset = 0; offset < terms.length; offset += TERM_ROWS) {
    const { tuples, values } = valueTuples(
      tx,
      terms.slice(offset, offset + TERM_ROWS).map((term) => [conversationId, kind, term]),
    );
    await executeIn(tx, `INSERT INTO "SearchTerm" ("conversationId", "kind", "term") VALUES ${tuples} ON CONFLICT DO NOTHING`, values);
  }
}

/** Writes a new conversation's library entry and "about" words; its messages add themselves as they are written. */
export async function createLibraryEntry(tx: Transaction, conversationId: string, about: LibraryAbout): Promise<void> {
  await insertRow(tx, "LibraryEntry", { conversationId, messageCount: 0, tokens: 0, indexed: true });
  await insertTerms(tx, conversationId, "about", aboutTerms(about));
}

/** LB1: a renamed conversation, or one with another model, is found by what it is now called, not what it was. */
export async function rewriteLibraryAbout(tx: Transaction, conversationId: string, about: LibraryAbout): Promise<void> {
  await tx.searchTerm.deleteMany({ where: { conversationId, kind: "about" } });
  await insertTerms(tx, conversationId, "about", aboutTerms(about));
}

/**
 * LB-1: messages written to a conversation (any of its branches, or a session
 * file's rows) count towards its entry and add their words, in the
 * transaction that writes them, so a search is right as soon as the write
 * commits (appends included).
 */
export async function addLibraryMessages(tx: Transaction, conversationId: string, messages: readonly LibraryMessageColumns[], writtenAt: Date): Promise<void> {
  if (messages.length === 0) return;
  const { messageCount, tokens, said } = libraryAdditionOf(messages, writtenAt);
  const held = heldConnectionOf(tx);
  if (held)
    await held.run(`UPDATE "LibraryEntry" SET "messageCount" = "messageCount" + ?, "tokens" = "tokens" + ? WHERE "conversationId" = ?`, [
      messageCount,
      tokens,
      conversationId,
    ]);
  else await tx.libraryEntry.updateMany({ where: { conversationId }, data: { messageCount: { increment: messageCount }, tokens: { increment: tokens } } });
  await insertTerms(tx, conversationId, "said", said);
}

/** What messages written at `writtenAt` add to their conversation's entry (LB-1): their count, their tokens, and the words they said. */
export function libraryAdditionOf(messages: readonly LibraryMessageColumns[], writtenAt: Date): { messageCount: number; tokens: number; said: string[] } {
  return { messageCount: messages.length, tokens: messages.reduce((total, message) => total + message.tokens, 0), said: saidTerms(messages, writtenAt) };
}

/** Messages read a query when a conversation is indexed afresh. */
const INDEX_PAGE_MESSAGES = 2_000;

/**
 * Writes a stored conversation's entry and words from what is stored: for
 * conversations stored before the library (`indexed: false`) and session
 * files, whose rows are written as they are. Reads its messages a page at a time.
 */
export async function indexConversationById(db: Database, conversationId: string): Promise<void> {
  const conversation = await db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
  let messageCount = 0;
  let tokens = 0;
  const said = new Set<string>();
  for (let after: string | undefined; ; ) {
    const rows = await db.message.findMany({
      where: { branch: { conversationId } },
      select: { id: true, content: true, toolCalls: true, name: true, metadata: true, tokens: true, createdAt: true },
      orderBy: { id: "asc" },
      take: INDEX_PAGE_MESSAGES,
      ...(after ? { cursor: { id: after }, skip: 1 } : {}),
    });
    messageCount += rows.length;
    for (const row of rows) {
      tokens += row.tokens;
      for (const term of saidTerms([row], row.createdAt)) said.add(term);
    }
    if (rows.length < INDEX_PAGE_MESSAGES) break;
    after = rows[rows.length - 1].id;
  }
  await runTransaction(db, async (tx) => {
    await tx.searchTerm.deleteMany({ where: { conversationId } });
    await insertTerms(tx, conversationId, "about", aboutTerms(conversation));
    await insertTerms(tx, conversationId, "said", [...said]);
    await tx.libraryEntry.upsert({
      where: { conversationId },
      create: { conversationId, messageCount, tokens },
      update: { messageCount, tokens, indexed: true },
    });
  });
}

/** Indexes every conversation stored before the library; how many it indexed. */
export async function indexUnindexedConversations(db: Database): Promise<number> {
  const pending = await runQuery(db, () => db.libraryEntry.findMany({ where: { indexed: false }, select: { conversationId: true } }));
  for (const { conversationId } of pending) await runQuery(db, () => indexConversationById(db, conversationId));
  return pending.length;
}
