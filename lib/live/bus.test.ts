import { describe, expect, it, vi } from "vitest";
import { ALL_CONVERSATIONS, getLiveBus, LiveBus } from "./bus";
import type { LiveEvent } from "./events";

const event = (conversationId: string): LiveEvent => ({
  type: "branch-created",
  conversationId,
  at: "2026-01-01T00:00:00.000Z",
  branch: { id: "b", conversationId, name: "main@1", parentId: "a", forkPosition: 1, length: 1, createdAt: "2026-01-01T00:00:00.000Z" },
});

describe("LiveBus", () => {
  it("delivers a conversation's events to its subscribers and to the all-conversations channel, in order", () => {
    const bus = new LiveBus();
    const one: string[] = [];
    const all: string[] = [];
    bus.subscribe("c1", (received) => one.push(received.conversationId));
    bus.subscribe(ALL_CONVERSATIONS, (received) => all.push(received.conversationId));
    bus.publish(event("c1"));
    bus.publish(event("c2"));
    bus.publish(event("c1"));
    expect(one).toEqual(["c1", "c1"]);
    expect(all).toEqual(["c1", "c2", "c1"]);
  });

  it("stops delivering after unsubscribe and forgets empty channels", () => {
    const bus = new LiveBus();
    const listener = vi.fn();
    const unsubscribe = bus.subscribe("c1", listener);
    const again = bus.subscribe("c1", listener);
    expect(bus.listenerCount("c1")).toBe(2);
    unsubscribe();
    bus.publish(event("c1"));
    expect(listener).toHaveBeenCalledTimes(1);
    again();
    expect(bus.listenerCount()).toBe(0);
  });

  it("keeps delivering when a listener throws", () => {
    const bus = new LiveBus();
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const after = vi.fn();
    bus.subscribe("c1", () => {
      throw new Error("bad listener");
    });
    bus.subscribe("c1", after);
    bus.publish(event("c1"));
    expect(after).toHaveBeenCalledOnce();
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it("is one bus per process, shared through globalThis", () => {
    expect(getLiveBus()).toBe(getLiveBus());
  });
});
