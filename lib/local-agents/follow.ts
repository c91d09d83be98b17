import "server-only";
import { watch, promises as fs, type FSWatcher } from "node:fs";
import type { LocalImportResult } from "./import";
import type { ResolvedSessionFile } from "./paths";
import type { FollowStatus } from "./types";

export interface FollowOptions {
  /** Re-imports the file; the import service appends what is new to the session's conversation. */
  importFile: (file: ResolvedSessionFile) => Promise<LocalImportResult>;
  /** How often the file's size and time are checked besides fs.watch, which misses changes on some file systems. */
  pollMs?: number;
  /** At least this long between the starts of two imports (LA5: a few a second at most). */
  minIntervalMs?: number;
}

const DEFAULT_POLL_MS = 500;
const DEFAULT_MIN_INTERVAL_MS = 300;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Follows one session file: every change (seen by fs.watch or the poll) re-imports it, debounced (LA5). */
export class SessionFollower {
  readonly status: FollowStatus;
  private readonly options: Required<FollowOptions>;
  private watcher: FSWatcher | null = null;
  private poll: ReturnType<typeof setInterval> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private pending = false;
  private stopped = false;
  private lastStartAt = 0;
  private seen: string;
  /** Resolves when the import in flight (if any) has ended: tests and `stop` wait on it. */
  private current: Promise<void> = Promise.resolve();

  constructor(
    readonly file: ResolvedSessionFile,
    conversationId: string,
    options: FollowOptions,
  ) {
    this.options = { pollMs: DEFAULT_POLL_MS, minIntervalMs: DEFAULT_MIN_INTERVAL_MS, ...options };
    this.status = { path: file.path, agent: file.root.agent, conversationId, startedAt: new Date().toISOString(), lastImportAt: null, lastError: null };
    this.seen = `${file.stats.size}:${file.stats.mtimeMs}`;
  }

  start(): void {
    try {
      // Not persistent: following never keeps the process alive; it ends with it.
      this.watcher = watch(this.file.path, { persistent: false }, () => void this.check());
      this.watcher.on("error", () => {
        this.watcher?.close();
        this.watcher = null;
      });
    } catch {
      this.watcher = null;
    }
    this.poll = setInterval(() => void this.check(), this.options.pollMs);
    this.poll.unref?.();
  }

  /** Whether the file changed since it was last seen; if so, an import is scheduled. */
  async check(): Promise<void> {
    if (this.stopped) return;
    const stats = await fs.stat(this.file.path).catch(() => null);
    if (!stats) return;
    const stamp = `${stats.size}:${stats.mtimeMs}`;
    if (stamp === this.seen) return;
    this.seen = stamp;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    if (this.timer) return;
    const wait = Math.max(0, this.lastStartAt + this.options.minIntervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.current = this.run();
    }, wait);
    this.timer.unref?.();
  }

  private async run(): Promise<void> {
    if (this.stopped) return;
    this.running = true;
    this.lastStartAt = Date.now();
    try {
      const result = await this.options.importFile(this.file);
      this.status.conversationId = result.conversationIds[0] ?? this.status.conversationId;
      this.status.lastImportAt = new Date().toISOString();
      this.status.lastError = null;
    } catch (error) {
      // Kept, not thrown: the next change tries again (a half-written JSON document, the database briefly away).
      this.status.lastError = messageOf(error);
    } finally {
      this.running = false;
      if (this.pending) {
        this.pending = false;
        this.schedule();
      }
    }
  }

  /** Waits for the import in flight, if any. */
  async settled(): Promise<void> {
    await this.current;
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.close();
    this.watcher = null;
    if (this.poll) clearInterval(this.poll);
    if (this.timer) clearTimeout(this.timer);
    this.poll = null;
    this.timer = null;
  }
}

const FOLLOWERS_KEY = Symbol.for("context-lab.local-agents.followers");
const globalForFollowers = globalThis as typeof globalThis & { [FOLLOWERS_KEY]?: Map<string, SessionFollower> };

/** One follower per file per process, on `globalThis` because Next bundles each route separately. */
function followers(): Map<string, SessionFollower> {
  globalForFollowers[FOLLOWERS_KEY] ??= new Map();
  return globalForFollowers[FOLLOWERS_KEY];
}

/** Starts following a file whose conversation is `conversationId`; a file already followed keeps its follower. */
export function startFollowing(file: ResolvedSessionFile, conversationId: string, options: FollowOptions): FollowStatus {
  const existing = followers().get(file.path);
  if (existing) {
    existing.status.conversationId = conversationId;
    return { ...existing.status };
  }
  const follower = new SessionFollower(file, conversationId, options);
  followers().set(file.path, follower);
  follower.start();
  return { ...follower.status };
}

/** The follower of a file, or null. */
export function followerOfPath(path: string): SessionFollower | null {
  return followers().get(path) ?? null;
}

/** The follow whose conversation is `conversationId`, or null. */
export function followOfConversation(conversationId: string): FollowStatus | null {
  for (const follower of followers().values()) if (follower.status.conversationId === conversationId) return { ...follower.status };
  return null;
}

/** Every follow in progress. */
export function allFollows(): FollowStatus[] {
  return [...followers().values()].map((follower) => ({ ...follower.status }));
}

/** Stops following a file, or every file of a conversation; returns the follows stopped. */
export function stopFollowing(target: { path?: string; conversationId?: string }): FollowStatus[] {
  const stopped: FollowStatus[] = [];
  for (const [path, follower] of followers()) {
    if (path !== target.path && follower.status.conversationId !== target.conversationId) continue;
    follower.stop();
    followers().delete(path);
    stopped.push({ ...follower.status });
  }
  return stopped;
}

/** Stops every follower. */
export function stopAllFollowing(): void {
  for (const follower of followers().values()) follower.stop();
  followers().clear();
}
