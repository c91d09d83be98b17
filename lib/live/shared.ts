import "server-only";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { database } from "@/lib/api/database";
import { describeDatabase, getConversationById, getHistoryByBranchId, isPostgresUrl, type Database } from "@/lib/db";
import { readRows } from "@/lib/db/run";
import { getLiveBus, type LiveBus } from "./bus";
import type { LiveEvent } from "./events";

/**
 * Live events shared by every app instance on one PostgreSQL database (LV-1–LV-5
 * in README.md): each instance delivers its own events to its own tabs and
 * sends them to the others with NOTIFY; one connection per instance LISTENs
 * and hands the others' events to its bus.
 */

/** NOTIFY refuses payloads of 8,000 bytes or more: an event above this travels as a reference (LV-3). */
export const MAX_NOTIFY_BYTES = 7_900;
/** Notices sent in one statement at most (LV-7): under a megabyte of payloads. */
const NOTICES_PER_STATEMENT = 100;
/**
 * LV-7: a notice waits this long for the ones published after it, to share
 * its statement: under load, a recorded call publishes two or three events a
 * few milliseconds apart, and twenty agents' calls interleave. Another
 * instance's tabs see an event this much later; this instance's own at once.
 */
export const NOTIFY_WINDOW_MS = 20;
const RECONNECT_MS = [250, 500, 1_000, 2_000, 5_000];

/** What one notification carries: the publishing instance, and the event or where to read it. */
type Notice = { from: string; event: LiveEvent } | { from: string; appended: AppendedReference };

/** A conversation update read back from the database (LV-3): the conversation, and the appended positions of a branch. */
interface AppendedReference {
  conversationId: string;
  at: string;
  created: boolean;
  messages: { branchId: string; from: number; to: number } | null;
}

/** The channel of one database and schema: instances on other schemas of the same database never hear each other. */
export function liveChannelOf(url: string): string {
  const schema = new URL(url).searchParams.get("schema");
  return schema ? `context_lab_live:${schema}` : "context_lab_live";
}

/**
 * The notification for an event (LV-3): the event itself when it fits; a
 * conversation update as a reference to what the database holds; an
 * exchange without its error body. Null for an event that cannot be shared.
 */
export function noticeOf(from: string, event: LiveEvent): string | null {
  const whole = JSON.stringify({ from, event } satisfies Notice);
  if (Buffer.byteLength(whole) <= MAX_NOTIFY_BYTES) return whole;
  if (event.type === "conversation-updated") {
    const { appended } = event;
    const messages = appended
      ? { branchId: appended.branchId, from: appended.messages[0]?.position ?? appended.branchLength, to: appended.branchLength }
      : null;
    return JSON.stringify({ from, appended: { conversationId: event.conversationId, at: event.at, created: event.created, messages } } satisfies Notice);
  }
  if (event.type === "exchange-started" || event.type === "exchange-recorded") {
    const exchange = { ...event.exchange, error: event.exchange.error === null ? null : { source: "proxy", type: "too_large_to_share" } };
    const slim = JSON.stringify({ from, event: { ...event, exchange } } satisfies Notice);
    if (Buffer.byteLength(slim) <= MAX_NOTIFY_BYTES) return slim;
  }
  return null;
}

/** The event a notification stands for, read back from the database when it was sent as a reference. */
export async function eventOfNotice(db: Database, notice: Notice): Promise<LiveEvent> {
  if ("event" in notice) return notice.event;
  const { appended } = notice;
  const [conversation, messages] = await Promise.all([
    getConversationById(db, appended.conversationId),
    appended.messages ? getHistoryByBranchId(db, appended.messages.branchId, { fromPosition: appended.messages.from, toPosition: appended.messages.to }) : [],
  ]);
  return {
    type: "conversation-updated",
    conversationId: appended.conversationId,
    at: appended.at,
    conversation,
    created: appended.created,
    appended: appended.messages ? { branchId: appended.messages.branchId, branchLength: appended.messages.to, messages } : null,
  };
}

export interface SharedLiveOptions {
  /** The PostgreSQL URL (`?schema=` honoured). */
  url: string;
  db: Database;
  bus?: LiveBus;
  /** Called after each (re)connection is listening; tests wait on it. */
  onListening?: () => void;
}

/** One instance's share of the live events (LV-1–LV-5). */
export class SharedLive {
  readonly instanceId = randomUUID();
  readonly channel: string;
  private readonly bus: LiveBus;
  private client: pg.Client | null = null;
  private stopped = false;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Events of other instances delivered here. */
  received = 0;
  /** NOTIFY statements sent (LV-7: one for the events published within NOTIFY_WINDOW_MS). */
  notified = 0;
  private readonly pending: { event: LiveEvent; notice: string }[] = [];
  private sending: Promise<void> = Promise.resolve();
  /** The wait of the pending notices (LV-7), while they wait. */
  private window: ReturnType<typeof setTimeout> | undefined;
  /** Settles once the first connection listens, or has failed and is being retried (LV-6). */
  readonly listening: Promise<void>;
  private settleListening: () => void = () => undefined;

  constructor(private readonly options: SharedLiveOptions) {
    this.channel = liveChannelOf(options.url);
    this.bus = options.bus ?? getLiveBus();
    this.listening = new Promise((resolve) => (this.settleListening = resolve));
    this.bus.setRelay((event) => void this.send(event));
    void this.connect();
  }

  /** L2: every event this instance publishes goes to the others too (LV-7: with the others published within NOTIFY_WINDOW_MS). */
  private send(event: LiveEvent): void {
    const notice = noticeOf(this.instanceId, event);
    if (notice === null) {
      console.error(`live: ${event.type} of ${event.conversationId} is too large to share with the other instances`);
      return;
    }
    this.pending.push({ event, notice });
    if (this.pending.length === 1) this.window = setTimeout(() => this.flushPending(), NOTIFY_WINDOW_MS);
  }

  /** Sends what waits, after what is being sent: one flush at a time, so notices go out in the order they were published. */
  private flushPending(): void {
    clearTimeout(this.window);
    this.window = undefined;
    this.sending = this.sending.then(() => this.flush());
  }

  /** LV-7: the notices waiting, in order, in one statement per `NOTICES_PER_STATEMENT`; a failed NOTIFY is logged, the local tabs have the events already. */
  private async flush(): Promise<void> {
    const batch = this.pending.splice(0);
    for (let start = 0; start < batch.length; start += NOTICES_PER_STATEMENT) {
      const part = batch.slice(start, start + NOTICES_PER_STATEMENT);
      const calls = part.map((_, index) => `pg_notify($1, $${index + 2})`).join(", ");
      try {
        await readRows(this.options.db, `SELECT ${calls}`, [this.channel, ...part.map(({ notice }) => notice)]);
        this.notified += 1;
      } catch (error) {
        for (const { event } of part) console.error(`live: could not share ${event.type} of ${event.conversationId} with the other instances`, error);
      }
    }
  }

  /** L4: one listening connection; after a drop, reconnects with backoff and listens again. */
  private async connect(): Promise<void> {
    if (this.stopped) return;
    const connection = new URL(this.options.url);
    connection.searchParams.delete("schema");
    const client = new pg.Client({ connectionString: connection.toString(), connectionTimeoutMillis: 5_000 });
    client.on("error", () => this.reconnect(client));
    client.on("end", () => this.reconnect(client));
    client.on("notification", (message) => {
      if (message.channel === this.channel && message.payload) void this.receive(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
      if (this.stopped) {
        await client.end();
        return;
      }
      this.client = client;
      this.attempt = 0;
      this.options.onListening?.();
    } catch (error) {
      console.error("live: could not listen for the other instances' events; retrying", error);
      this.reconnect(client);
    } finally {
      this.settleListening();
    }
  }

  private reconnect(client: pg.Client): void {
    if (this.stopped || (this.client !== null && this.client !== client) || this.timer) return;
    this.client = null;
    client.removeAllListeners();
    client.on("error", () => undefined);
    void client.end().catch(() => undefined);
    const delay = RECONNECT_MS[Math.min(this.attempt, RECONNECT_MS.length - 1)];
    this.attempt += 1;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.connect();
    }, delay);
  }

  /** L1: another instance's event reaches this instance's tabs once; this instance's own come back and are skipped. */
  private async receive(payload: string): Promise<void> {
    try {
      const notice = JSON.parse(payload) as Notice;
      if (notice.from === this.instanceId) return;
      const event = await eventOfNotice(this.options.db, notice);
      this.received += 1;
      this.bus.deliver(event);
    } catch (error) {
      console.error("live: an event from another instance could not be delivered", error);
    }
  }

  /** The listening connection's backend pid, for tests that cut it. */
  async backendPid(): Promise<number | null> {
    if (!this.client) return null;
    const result = await this.client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    return result.rows[0]?.pid ?? null;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.settleListening();
    clearTimeout(this.timer);
    this.bus.setRelay(null);
    // What was published before stopping still reaches the others.
    if (this.window !== undefined) this.flushPending();
    await this.sending;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

const SHARED_KEY = Symbol.for("context-lab.live.shared");
const globalForShared = globalThis as typeof globalThis & { [SHARED_KEY]?: SharedLive | null };

/**
 * Starts sharing live events when the app's database is PostgreSQL (LV-5): once
 * per process, from the first publisher or the first live stream. SQLite is
 * one process's database: its bus stays in the process. Settles when this
 * instance hears the others (LV-6): a live stream waits for it before it opens.
 */
export function ensureSharedLive(): Promise<void> {
  if (globalForShared[SHARED_KEY] === undefined) {
    const db = database();
    const url = process.env.DATABASE_URL;
    globalForShared[SHARED_KEY] = describeDatabase(db).provider === "postgres" && url && isPostgresUrl(url) ? new SharedLive({ url, db }) : null;
  }
  return globalForShared[SHARED_KEY]?.listening ?? Promise.resolve();
}
