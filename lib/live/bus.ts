import type { LiveEvent } from "./events";

export type LiveListener = (event: LiveEvent) => void;

/** Subscribe with this instead of a conversation id to hear every conversation. */
export const ALL_CONVERSATIONS = "*";

/**
 * An in-process publish/subscribe bus, one channel per conversation plus
 * `ALL_CONVERSATIONS`. Delivery is synchronous and in publish order; a
 * listener that throws is logged and does not stop the others.
 * Several server processes would need a shared channel (PostgreSQL
 * LISTEN/NOTIFY) instead: see lib/live/README.md.
 */
export class LiveBus {
  private readonly channels = new Map<string, Set<LiveListener>>();

  /** Listens to one conversation's events (or every conversation's); returns the unsubscribe function. */
  subscribe(conversationId: string, listener: LiveListener): () => void {
    let channel = this.channels.get(conversationId);
    if (!channel) {
      channel = new Set();
      this.channels.set(conversationId, channel);
    }
    // Wrapping gives each subscription its own identity, so one listener may subscribe twice.
    const subscription: LiveListener = (event) => listener(event);
    channel.add(subscription);
    return () => {
      const current = this.channels.get(conversationId);
      if (!current) return;
      current.delete(subscription);
      if (current.size === 0) this.channels.delete(conversationId);
    };
  }

  publish(event: LiveEvent): void {
    for (const key of [event.conversationId, ALL_CONVERSATIONS]) {
      const channel = this.channels.get(key);
      if (!channel) continue;
      for (const listener of [...channel]) {
        try {
          listener(event);
        } catch (error) {
          console.error(`live: a listener of ${key} failed on ${event.type}`, error);
        }
      }
    }
  }

  /** Open subscriptions of one channel, or of all channels. */
  listenerCount(conversationId?: string): number {
    if (conversationId !== undefined) return this.channels.get(conversationId)?.size ?? 0;
    let total = 0;
    for (const channel of this.channels.values()) total += channel.size;
    return total;
  }
}

const BUS_KEY = Symbol.for("context-lab.live.bus");
const globalForBus = globalThis as typeof globalThis & { [BUS_KEY]?: LiveBus };

/**
 * The process's bus. It lives on `globalThis` because Next bundles each route
 * separately: the proxy route and the SSE route would otherwise hold two buses.
 */
export function getLiveBus(): LiveBus {
  globalForBus[BUS_KEY] ??= new LiveBus();
  return globalForBus[BUS_KEY];
}

export function publishLiveEvent(event: LiveEvent): void {
  getLiveBus().publish(event);
}
