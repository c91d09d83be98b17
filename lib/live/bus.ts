import type { LiveEvent } from "./events";

export type LiveListener = (event: LiveEvent) => void;

/** Subscribe with this instead of a conversation id to hear every conversation. */
export const ALL_CONVERSATIONS = "*";

/**
 * An in-process publish/subscribe bus, one channel per conversation plus
 * `ALL_CONVERSATIONS`. Delivery is synchronous and in publish order; a
 * listener that throws is logged and does not stop the others.
 * With PostgreSQL, a relay shares what this process publishes with the
 * other instances, and their events arrive through `deliver` (shared.ts).
 */
export class LiveBus {
  private readonly channels = new Map<string, Set<LiveListener>>();
  private relay: LiveListener | null = null;

  /** Where this process's own events go besides its listeners (the other instances); null: nowhere. */
  setRelay(relay: LiveListener | null): void {
    this.relay = relay;
  }

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

  /** This process's event: to its listeners, then to the relay. */
  publish(event: LiveEvent): void {
    this.deliver(event);
    this.relay?.(event);
  }

  /** An event to this process's listeners only (one published here, or another instance's). */
  deliver(event: LiveEvent): void {
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
