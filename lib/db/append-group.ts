import "server-only";
import type pg from "pg";
import { postgresPoolOf, type Database } from "./client";
import type { Message as MessageRow } from "./generated/sqlite/client";
import { libraryAdditionOf } from "./library";
import { appendMessages, assertExpected, messageInserts, newMessageRows, toMessageRecord, type MessageRecord, type NewMessage } from "./messages";
import { postgresValue } from "./postgres-connection";

/**
 * DB-G10: on PostgreSQL, the appends of many branches that arrive together
 * are written in one transaction with one statement per kind: the branches'
 * locks, their counters, the message rows, the library's counters and words,
 * the conversations' stamps. A recorded call's placement is mostly such an
 * append (its state kept, MEM-8: no artifact, no compaction), and an
 * evaluation run places the calls of tens of agents at once; one by one,
 * each was a transaction of about seven statements, and each statement a
 * round trip that costs the server and the database more than its rows.
 *
 * The appends that arrive while a group is being written form the next one
 * (at most one group in flight per client). Each append names where its
 * branch must be (its length and revision), and one whose branch moved on
 * fails alone with ConflictError, as it would have alone (`assertExpected`).
 * The group locks the branches it can take at once and leaves the others
 * (`SKIP LOCKED`: held by another transaction, another server's group, or
 * gone) to be made on their own (`appendMessages`), which waits for the
 * lock or reports the branch not found: a group never waits behind one
 * agent's branch, and two groups never wait for each other's. When the
 * group's transaction fails (a deadlock with another writer, a row the
 * database refuses, the connection lost), nothing of it is kept and each
 * append is made again on its own, so one bad append fails alone.
 */

/** Where an append's branch must be when it is locked. */
export interface ExpectedBranch {
  expectedLength: number;
  expectedRevision: number;
}

interface Pending {
  branchId: string;
  messages: NewMessage[];
  expected: ExpectedBranch;
  rows: MessageRow[];
  createdAt: Date;
  resolve: (records: MessageRecord[]) => void;
  reject: (error: unknown) => void;
}

/** An append the group leaves to be made on its own. */
const ALONE = Symbol("alone");

/** What the group's transaction made of an append: its records, why it was refused, or ALONE. */
type Outcome = MessageRecord[] | Error | typeof ALONE;

/** The locked branch columns an append is checked against. */
interface LockedBranch {
  id: string;
  name: string;
  conversationId: string;
  length: number;
  revision: number;
}

/** Appends of a client's branches, written in groups one after another. */
export class AppendGroups {
  private queue: Pending[] = [];
  private scheduled = false;
  private writing = false;
  /** Groups written in one transaction, for tests that count work. */
  groups = 0;
  /** Groups whose transaction failed and whose appends were made one by one. */
  fallbacks = 0;

  constructor(
    private readonly db: Database,
    private readonly pool: pg.Pool,
  ) {}

  /** Appends `messages` to the branch once it is where `expected` says; the records as written. */
  append(branchId: string, messages: NewMessage[], expected: ExpectedBranch): Promise<MessageRecord[]> {
    return new Promise<MessageRecord[]>((resolve, reject) => {
      const createdAt = new Date();
      let rows: MessageRow[];
      try {
        rows = newMessageRows(branchId, expected.expectedLength, messages, "postgres", createdAt);
      } catch (error) {
        reject(error);
        return;
      }
      this.queue.push({ branchId, messages, expected, rows, createdAt, resolve, reject });
      this.schedule();
    });
  }

  /** The next group starts after this turn of the event loop, so the appends made in it join; never while one is being written. */
  private schedule(): void {
    if (this.scheduled || this.writing || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.writeNext();
    });
  }

  private async writeNext(): Promise<void> {
    if (this.writing || this.queue.length === 0) return;
    // A branch appears once in a group; a second append to it waits for the next (it expects what the first leaves).
    const taken = new Set<string>();
    const group: Pending[] = [];
    const later: Pending[] = [];
    for (const pending of this.queue) {
      if (taken.has(pending.branchId)) later.push(pending);
      else {
        taken.add(pending.branchId);
        group.push(pending);
      }
    }
    this.queue = later;
    this.writing = true;
    try {
      await this.write(group);
    } finally {
      this.writing = false;
      this.schedule();
    }
  }

  private async write(group: Pending[]): Promise<void> {
    let outcomes: Map<Pending, Outcome>;
    try {
      outcomes = await this.transaction(group);
      this.groups += 1;
    } catch {
      this.fallbacks += 1;
      for (const pending of group) this.alone(pending);
      return;
    }
    for (const pending of group) {
      const outcome = outcomes.get(pending)!;
      if (outcome === ALONE) this.alone(pending);
      else if (outcome instanceof Error) pending.reject(outcome);
      else pending.resolve(outcome);
    }
  }

  /** The append made on its own, in a transaction of its own (`appendMessages`), with its own checks and errors. */
  private alone(pending: Pending): void {
    appendMessages(this.db, pending.branchId, pending.messages, pending.expected).then(pending.resolve, pending.reject);
  }

  /** The group's transaction: each append's records, or why it was refused. Throws (after rolling back) when the transaction fails. */
  private async transaction(group: Pending[]): Promise<Map<Pending, Outcome>> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      const outcomes = await this.writeGroup(client, group);
      await client.query("COMMIT");
      return outcomes;
    } catch (error) {
      await client.query("ROLLBACK").catch((rollback: Error) => {
        broken = rollback;
      });
      throw error;
    } finally {
      // A connection that could not roll back is closed rather than handed to the next user.
      client.release(broken);
    }
  }

  private async writeGroup(client: pg.PoolClient, group: Pending[]): Promise<Map<Pending, Outcome>> {
    const outcomes = new Map<Pending, Outcome>();
    // A branch another transaction holds is skipped, not waited for: the group does not wait behind one agent's branch.
    const locked = await client.query<LockedBranch>(
      `SELECT "id", "name", "conversationId", "length", "revision" FROM "Branch" WHERE "id" = ANY($1::text[]) FOR UPDATE SKIP LOCKED`,
      [group.map((pending) => pending.branchId)],
    );
    const branches = new Map(locked.rows.map((row) => [row.id, row]));
    const accepted: { pending: Pending; branch: LockedBranch }[] = [];
    for (const pending of group) {
      const branch = branches.get(pending.branchId);
      const appended = pending.messages.length;
      if (!branch) {
        // Held elsewhere, or gone: on its own it waits for the lock, or says the branch is not found.
        outcomes.set(pending, ALONE);
        continue;
      }
      try {
        assertExpected({ ...branch, length: branch.length + appended, revision: branch.revision + 1 }, appended, pending.expected);
        accepted.push({ pending, branch });
      } catch (error) {
        outcomes.set(pending, error as Error);
      }
    }
    if (accepted.length === 0) return outcomes;
    await client.query(
      `UPDATE "Branch" AS b SET "length" = b."length" + v.n, "revision" = b."revision" + 1 FROM unnest($1::text[], $2::integer[]) AS v(id, n) WHERE b."id" = v.id`,
      [accepted.map(({ pending }) => pending.branchId), accepted.map(({ pending }) => pending.messages.length)],
    );
    for (const { sql, values } of messageInserts(
      this.db,
      accepted.flatMap(({ pending }) => pending.rows),
    ))
      await client.query(sql, values.map(postgresValue));
    await this.addToLibrary(client, accepted);
    const conversations = [...new Set(accepted.map(({ branch }) => branch.conversationId))].sort();
    await client.query(`UPDATE "Conversation" SET "updatedAt" = $1 WHERE "id" = ANY($2::text[])`, [postgresValue(new Date()), conversations]);
    for (const { pending } of accepted) outcomes.set(pending, pending.rows.map(toMessageRecord));
    return outcomes;
  }

  /** LB-1: each conversation's entry counts its appended messages and learns their words, in the group's transaction. */
  private async addToLibrary(client: pg.PoolClient, accepted: { pending: Pending; branch: LockedBranch }[]): Promise<void> {
    const entries = new Map<string, { messageCount: number; tokens: number; said: Set<string> }>();
    for (const { pending, branch } of accepted) {
      const addition = libraryAdditionOf(pending.rows, pending.createdAt);
      const entry = entries.get(branch.conversationId) ?? { messageCount: 0, tokens: 0, said: new Set<string>() };
      entry.messageCount += addition.messageCount;
      entry.tokens += addition.tokens;
      for (const term of addition.said) entry.said.add(term);
      entries.set(branch.conversationId, entry);
    }
    const conversations = [...entries.keys()].sort();
    await client.query(
      `UPDATE "LibraryEntry" AS l SET "messageCount" = l."messageCount" + v.n, "tokens" = l."tokens" + v.t FROM unnest($1::text[], $2::integer[], $3::integer[]) AS v(id, n, t) WHERE l."conversationId" = v.id`,
      [conversations, conversations.map((id) => entries.get(id)!.messageCount), conversations.map((id) => entries.get(id)!.tokens)],
    );
    const terms = conversations.flatMap((id) => [...entries.get(id)!.said].sort().map((term) => [id, term] as const));
    await client.query(
      `INSERT INTO "SearchTerm" ("conversationId", "kind", "term") SELECT v.id, 'said', v.term FROM unnest($1::text[], $2::text[]) AS v(id, term) ON CONFLICT DO NOTHING`,
      [terms.map(([id]) => id), terms.map(([, term]) => term)],
    );
  }
}

const groupsOf = new WeakMap<object, AppendGroups>();

/** The client's append groups (made on first use); null but on PostgreSQL through a client made by createDatabase. */
export function appendGroupsOf(db: Database): AppendGroups | null {
  const known = groupsOf.get(db);
  if (known) return known;
  const pool = postgresPoolOf(db);
  if (!pool) return null;
  const groups = new AppendGroups(db, pool);
  groupsOf.set(db, groups);
  return groups;
}

/**
 * Appends `messages` to a branch that must be at `expected` (DB-G10): on
 * PostgreSQL in a group with the other branches' appends of the moment,
 * elsewhere in a transaction of its own (SQLite's group commit already
 * shares its commits, DB-G1). The records as written.
 */
export function appendMessagesGrouped(db: Database, branchId: string, messages: NewMessage[], expected: ExpectedBranch): Promise<MessageRecord[]> {
  const groups = messages.length > 0 ? appendGroupsOf(db) : null;
  return groups ? groups.append(branchId, messages, expected) : appendMessages(db, branchId, messages, expected);
}
